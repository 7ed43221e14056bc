import type { Exchange, HeaderList } from '../compare/exchange.ts';
import type { FieldDifference } from '../compare/field-difference.ts';
import type { EndpointNoise } from '../compare/noise.ts';
import type { KeptExchange, RunSummary } from '../compare/score.ts';
import { REDACTED } from '../proxy/redaction.ts';
import { GUEST_MASKS, maskedValue, maskJsonBytes } from './sample-masking.ts';

/**
 * What the harness's outputs (stdout, `--json`, `--report`) show of secrets and guest data: a report is meant to
 * be mailed. Secrets (api keys, tokens, client secrets, passwords, credentials in headers) become `REDACTED`;
 * guest data is masked with the service's own rules (spec 1, item 9, as the shadow samples mask it:
 * harness/report/sample-masking.ts). JSON bodies are masked in place, every other byte as sent; text
 * snippets (the bytes around a body difference) by pattern. The corpus on disk is never touched.
 */

const SECRET_NAMES = [
  'api_key',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'password',
  'secret',
];
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

const redact = () => REDACTED;
const MASKS: Readonly<Record<string, (value: string) => string>> = {
  ...GUEST_MASKS,
  ...Object.fromEntries(SECRET_NAMES.map((name) => [name, redact])),
};

export interface Redactor {
  summary(summary: RunSummary): RunSummary;
  kept(kept: KeptExchange[]): KeptExchange[];
  noise(noise: EndpointNoise[]): EndpointNoise[];
}

/** Everything shown as it is (`--no-redact`, for a run on the engineer's own machine). */
export const NO_REDACTION: Redactor = {
  summary: (s) => s,
  kept: (k) => k,
  noise: (n) => n,
};

export const REDACTION: Redactor = {
  summary: (summary) => ({
    ...summary,
    endpoints: summary.endpoints.map((endpoint) => ({
      ...endpoint,
      fields: endpoint.fields.map((field) => ({
        ...field,
        example: {
          ...('recorded' in field.example ? { recorded: redactValue(field.path, field.example.recorded) } : {}),
          ...('replayed' in field.example ? { replayed: redactValue(field.path, field.example.replayed) } : {}),
        },
      })),
    })),
    differences: summary.differences.map((difference) => ({
      ...difference,
      url: redactUrl(difference.url),
      ...(difference.sent === undefined ? {} : { sent: redactUrl(difference.sent) }),
      fields: difference.fields.map(redactField),
    })),
  }),
  kept: (kept) =>
    kept.map((k) => {
      const recorded = redactBody(k.recorded.responseBody);
      const replayed = k.replayed && redactBody(k.replayed.responseBody);
      // The report marks where bodies part by byte offset: masks change lengths, so the offsets move with them.
      const fields = k.fields.map((field) => {
        const redacted = redactField(field);
        if (field.offset !== undefined) redacted.offset = recorded.moved(field.offset);
        if (field.replayed_offset !== undefined && replayed)
          redacted.replayed_offset = replayed.moved(field.replayed_offset);
        return redacted;
      });
      return {
        ...k,
        ...(k.sent === undefined ? {} : { sent: redactUrl(k.sent) }),
        recorded: { ...redactExchange(k.recorded), responseBody: recorded.bytes },
        ...(k.replayed && replayed
          ? {
              replayed: {
                ...k.replayed,
                responseHeaders: redactHeaders(k.replayed.responseHeaders),
                responseBody: replayed.bytes,
              },
            }
          : {}),
        fields,
        ...(k.error !== undefined ? { error: redactText(k.error) } : {}),
      };
    }),
  noise: (noise) =>
    noise.map((endpoint) => ({
      ...endpoint,
      fields: endpoint.fields.map((field) => ({
        ...field,
        example: {
          ...('recorded' in field.example ? { recorded: redactValue(field.path, field.example.recorded) } : {}),
          ...('replayed' in field.example ? { replayed: redactValue(field.path, field.example.replayed) } : {}),
        },
      })),
    })),
};

function redactField<F extends Omit<FieldDifference, 'allowed'>>(field: F): F {
  return {
    ...field,
    ...('recorded' in field ? { recorded: redactValue(field.path, field.recorded) } : {}),
    ...('replayed' in field ? { replayed: redactValue(field.path, field.replayed) } : {}),
    ...('expected' in field ? { expected: redactValue(field.path, field.expected) } : {}),
  };
}

/** A field's value: `body` and `error` are text (snippets, messages); the rest are JSON values at a path. */
function redactValue(path: string, value: unknown): unknown {
  if (path === 'body' || path === 'error' || path.startsWith('headers.')) {
    return typeof value === 'string' ? redactText(value) : value;
  }
  const masked = maskedValue(path, value, MASKS);
  return typeof masked === 'string' ? redactText(masked) : masked;
}

function redactExchange(exchange: Exchange): Exchange {
  return {
    ...exchange,
    url: redactUrl(exchange.url),
    requestHeaders: redactHeaders(exchange.requestHeaders),
    requestBody: exchange.requestBody && redactBody(exchange.requestBody).bytes,
    responseHeaders: redactHeaders(exchange.responseHeaders),
  };
}

function redactHeaders(headers: HeaderList): HeaderList {
  return headers.map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value] as const);
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * JSON masked in place, every other byte kept; anything else (form bodies, text) by pattern. `moved` answers where
 * a byte offset of the original body lies in the redacted one.
 */
function redactBody(bytes: Uint8Array): { bytes: Uint8Array; moved: (offset: number) => number } {
  const edits: Array<{ start: number; end: number; length: number }> = [];
  const masked = maskJsonBytes(bytes, MASKS, edits);
  if (edits.length) {
    const moved = (offset: number) =>
      offset + edits.filter((e) => e.end <= offset).reduce((sum, e) => sum + e.length - (e.end - e.start), 0);
    return { bytes: masked, moved };
  }
  const text = utf8.decode(bytes);
  const out = redactText(text);
  return { bytes: out === text ? bytes : new TextEncoder().encode(out), moved: (offset) => offset };
}

function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  return url.slice(0, question + 1) + redactForm(url.slice(question + 1));
}

function redactForm(form: string): string {
  return form
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals).toLowerCase();
      return SECRET_NAMES.includes(name) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

const SECRET_PARAM = new RegExp(`\\b(${SECRET_NAMES.join('|')})=[^&\\s"'<>]*`, 'gi');
const SECRET_MEMBER = new RegExp(`("(?:${SECRET_NAMES.join('|')})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*("|$|…)`, 'gi');
const GUEST_MEMBER = /("(email|phone|last_name)"\s*:\s*)"((?:[^"\\]|\\.)*)("|$|…)/g;
const EMAIL = /[^\s"'<>,;:()[\]{}]*@[^\s"'<>,;:()[\]{}]+/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

/**
 * Text that may hold pieces of a body or a URL (a snippet around a body difference, an error message): secrets
 * and guest data found by pattern, including those cut off at the snippet's edge.
 */
function redactText(text: string): string {
  return text
    .replace(SECRET_PARAM, (_, name: string) => `${name}=${REDACTED}`)
    .replace(SECRET_MEMBER, (_, head: string, tail: string) => `${head}"${REDACTED}${tail === '"' ? '"' : tail}`)
    .replace(GUEST_MEMBER, (_, head: string, key: string, value: string, tail: string) => {
      const mask = GUEST_MASKS[key] as (value: string) => string;
      return `${head}"${mask(value)}${tail}`;
    })
    .replace(EMAIL, (email) => (email.includes('*') ? email : (GUEST_MASKS.email as (v: string) => string)(email)))
    .replace(BEARER, (_, scheme: string) => `${scheme} ${REDACTED}`);
}
