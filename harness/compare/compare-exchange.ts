import diff from 'microdiff';
import { decodedAnswer } from './content-coding.ts';
import { type Correspondence, endpointNoun, idKind, isDate, type Scalar } from './correspondence.ts';
import { type Endpoint, type Exchange, endpointKey, endpointOf, headerValue } from './exchange.ts';
import type { FieldDifference, Verdict } from './field-difference.ts';
import { verdictOf } from './field-difference.ts';
import { type IgnoreRules, ruleText } from './ignore-rules.ts';
import { appendSegment, formatPath } from './json-path.ts';
import { type JsonTokens, jsonTokens } from './json-tokens.ts';
import type { NoiseModel } from './noise.ts';

export interface CompareOptions {
  /** Fields learnt as noise per endpoint (from a secondary recording): reported, not held against the answer. */
  noise?: NoiseModel;
  /** Explicit rules (endpoint plus field) whose differences are not held against the answer either. */
  ignore?: IgnoreRules;
  /** Response headers compared, case-insensitively. Default: the one a PMS observes, Content-Type. */
  headers?: readonly string[];
  /** Ids learnt to correspond (and dates shifted): differences they explain are not differences. */
  correspondence?: Correspondence;
  /** The exchange's index in the run, for the correspondence's report. */
  index?: number;
}

export interface ExchangeComparison {
  endpoint: Endpoint;
  verdict: Verdict;
  /** Every difference found, the allowed ones (noise, ignored) included and marked. */
  fields: FieldDifference[];
}

export const DEFAULT_HEADERS: readonly string[] = ['content-type'];

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Compares the answer a replay got with the recorded one: status, the chosen headers, and the body. JSON bodies
 * are compared field by field and must also match byte for byte outside the fields that differ (key order,
 * escaping and number formatting are legacy behaviour); other bodies are compared as bytes. Every difference is
 * classed (field-difference.ts); with a correspondence, ids it maps (and learns) are not differences. Bodies are
 * compared decoded from their Content-Encoding.
 */
export function compareExchange(
  sentRecorded: Exchange,
  sentReplayed: Pick<Exchange, 'status' | 'responseHeaders' | 'responseBody'>,
  options: CompareOptions = {},
): ExchangeComparison {
  // Bodies as the client reads them: a compressed legacy answer is the same answer (./content-coding.ts).
  const recorded = decodedAnswer(sentRecorded);
  const replayed = decodedAnswer(sentReplayed);
  const endpoint = endpointOf(recorded);
  const fields: FieldDifference[] = [];
  if (recorded.status !== replayed.status) {
    fields.push({ path: 'status', recorded: recorded.status, replayed: replayed.status, class: 'status' });
  }
  for (const name of options.headers ?? DEFAULT_HEADERS) {
    const was = headerValue(recorded.responseHeaders, name);
    const is = headerValue(replayed.responseHeaders, name);
    if (was !== is)
      fields.push({ path: `headers.${name.toLowerCase()}`, recorded: was, replayed: is, class: presence(was, is) });
  }
  if (!bytesEqual(recorded.responseBody, replayed.responseBody)) {
    const context = options.correspondence
      ? { correspondence: options.correspondence, index: options.index ?? 0, noun: endpointNoun(endpoint.path) }
      : undefined;
    fields.push(...bodyDifferences(recorded.responseBody, replayed.responseBody, context));
  }
  if (fields.length === 0) return { endpoint, verdict: 'identical', fields };
  const key = endpointKey(endpoint);
  for (const field of fields) {
    const rule = options.ignore?.ruleFor(endpoint, field.path);
    if (rule) {
      field.allowed = 'ignored';
      field.rule = ruleText(rule);
    } else if (options.noise?.allows(key, field.path)) field.allowed = 'noise';
  }
  return { endpoint, verdict: verdictOf(fields), fields };
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

interface CorrespondenceContext {
  correspondence: Correspondence;
  index: number;
  /** The kind of a bare `id` under `data` (getRoomsDetails: `room`). */
  noun: string | undefined;
}

function bodyDifferences(
  recordedBytes: Uint8Array,
  replayedBytes: Uint8Array,
  context?: CorrespondenceContext,
): FieldDifference[] {
  const recordedText = utf8.decode(recordedBytes);
  const replayedText = utf8.decode(replayedBytes);
  const recordedJson = parseJson(recordedText);
  const replayedJson = parseJson(replayedText);
  if (recordedJson === NOT_JSON || replayedJson === NOT_JSON) {
    return [bytesDifference(recordedText, replayedText, firstDifference(recordedBytes, replayedBytes))];
  }
  const all = jsonDifferences(recordedJson, replayedJson);
  const judged = context ? correspond(recordedJson, replayedJson, context) : undefined;
  const fields = all.filter((field) => !judged?.mapped.has(field.path));
  for (const field of fields) {
    const expected = judged?.conflicts.get(field.path);
    if (expected !== undefined) field.expected = expected;
  }
  // Outside the differing fields (the mapped ones too), the two texts must still be the same bytes.
  const differing = new Set(all.map((field) => field.path));
  const leaveOut = (path: string) => differing.has(path);
  const a = jsonTokens(recordedText, leaveOut);
  const b = jsonTokens(replayedText, leaveOut);
  if (!a || !b) return fields;
  const at = firstTokenDifference(a.tokens, b.tokens);
  if (at >= 0) {
    const recordedOffset = a.offsets[at] ?? recordedText.length;
    const replayedOffset = b.offsets[at] ?? replayedText.length;
    const detail = representationOf(a.tokens[at], b.tokens[at]);
    const message = (recordedJson as { message?: unknown } | null)?.message;
    const inMessage = typeof message === 'string' && tokenText(a.tokens[at]) === message;
    fields.push({
      path: 'body',
      offset: Buffer.byteLength(recordedText.slice(0, recordedOffset)),
      replayed_offset: Buffer.byteLength(replayedText.slice(0, replayedOffset)),
      recorded: snippet(recordedText, recordedOffset, memberStart(a, at, recordedOffset)),
      replayed: snippet(replayedText, replayedOffset, memberStart(b, at, replayedOffset)),
      // The legacy message is compared byte for byte (spec 7.4): an escape in it is a message change.
      class: inMessage ? 'message' : 'representation',
      detail,
    });
  }
  return fields;
}

/**
 * Where the text around a JSON difference starts: at an object key, never inside a value whose key is cut off,
 * so whoever masks the snippet (harness/report/redact.ts) sees every value with its name (`"client_secret":`,
 * `"email":`). The first key in the SNIPPET_BEFORE characters before the difference, or the key of the
 * differing value itself when that comes earlier; else the difference itself.
 */
function memberStart(t: JsonTokens, at: number, offset: number): number {
  const earliest = offset - SNIPPET_BEFORE;
  if (earliest <= 0) return 0;
  const isKey = (i: number) => {
    if (!t.tokens[i]?.startsWith('"')) return false;
    let next = i + 1;
    while (/^\s+$/.test(t.tokens[next] ?? '')) next++;
    return t.tokens[next] === ':';
  };
  let start = offset;
  for (let i = at; i >= 0 && (t.offsets[i] ?? 0) >= earliest; i--) if (isKey(i)) start = t.offsets[i] as number;
  // The differing token is a member's value: its key comes with it, however far back.
  let before = at - 1;
  while (before >= 0 && /^\s+$/.test(t.tokens[before] ?? '')) before--;
  if (t.tokens[before] === ':') {
    let key = before - 1;
    while (key >= 0 && /^\s+$/.test(t.tokens[key] ?? '')) key--;
    if (key >= 0) start = Math.min(start, t.offsets[key] as number);
  }
  return start;
}

/** What two differing raw tokens of equal JSON say about the difference. */
function representationOf(a: string | undefined, b: string | undefined): string {
  if (a === undefined || b === undefined) return 'length';
  if (/^\s+$/.test(a) || /^\s+$/.test(b)) return 'whitespace';
  const [x, y] = [tokenText(a), tokenText(b)];
  if (typeof x === 'number' && typeof y === 'number') return 'number format';
  if (typeof x === 'string' && typeof y === 'string') return x === y ? 'escaping' : 'key order';
  return 'key order';
}

function tokenText(token: string | undefined): unknown {
  if (token === undefined) return undefined;
  try {
    return JSON.parse(token);
  } catch {
    return undefined;
  }
}

function jsonDifferences(recorded: unknown, replayed: unknown): FieldDifference[] {
  const bothContainers =
    isContainer(recorded) && isContainer(replayed) && Array.isArray(recorded) === Array.isArray(replayed);
  if (!bothContainers) {
    return Object.is(recorded, replayed) ? [] : [{ path: '$', recorded, replayed, class: 'value' }];
  }
  return diff(recorded, replayed).map((change): FieldDifference => {
    const path = formatPath(change.path);
    if (change.type === 'CREATE') return { path, replayed: change.value, class: 'field' };
    if (change.type === 'REMOVE') return { path, recorded: change.oldValue, class: 'field' };
    return {
      path,
      recorded: change.oldValue,
      replayed: change.value,
      class: path === '$.message' ? 'message' : 'value',
    };
  });
}

function presence(was: unknown, is: unknown): 'field' | 'value' {
  return was === undefined || is === undefined ? 'field' : 'value';
}

/**
 * Walks both answers side by side and judges every id field (and every date, when dates are shifted) present in
 * both: the paths the correspondence explains, and those contradicting it with the value it expected.
 */
function correspond(
  recorded: unknown,
  replayed: unknown,
  context: CorrespondenceContext,
): { mapped: Set<string>; conflicts: Map<string, unknown> } {
  const mapped = new Set<string>();
  const conflicts = new Map<string, unknown>();
  const { correspondence } = context;
  const walk = (
    a: unknown,
    b: unknown,
    path: string,
    key: string | undefined,
    parent: string | undefined,
    element: boolean,
  ) => {
    if (isContainer(a) && isContainer(b)) {
      if (Array.isArray(a) && Array.isArray(b)) {
        const length = Math.min(a.length, b.length);
        for (let i = 0; i < length; i++) walk(a[i], b[i], appendSegment(path, i), key, parent, true);
      } else if (!Array.isArray(a) && !Array.isArray(b)) {
        for (const name of Object.keys(a)) {
          if (name in b)
            walk(a[name], (b as Record<string, unknown>)[name], appendSegment(path, name), name, key, false);
        }
      }
      return;
    }
    if (isContainer(a) || isContainer(b) || key === undefined) return;
    const kind = idKind(key, parent, element, context.noun);
    if (kind !== undefined) {
      const judgement = correspondence.judge(kind, a as Scalar, b as Scalar, { index: context.index, path });
      if ('conflict' in judgement) conflicts.set(path, judgement.conflict);
      else if (judgement.mapped) mapped.add(path);
    } else if (a !== b && isDate(a) && isDate(b) && correspondence.judgeDate(a, b)) mapped.add(path);
  };
  walk(recorded, replayed, '$', undefined, undefined, false);
  return { mapped, conflicts };
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  if (text.length === 0) return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return length;
}

function firstTokenDifference(a: readonly string[], b: readonly string[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

function bytesDifference(recordedText: string, replayedText: string, byteOffset: number): FieldDifference {
  // The snippet is cut on characters; the offset stays the byte position where the two bodies part.
  const charOffset = utf8.decode(Buffer.from(recordedText).subarray(0, byteOffset)).length;
  return {
    path: 'body',
    class: 'value',
    offset: byteOffset,
    replayed_offset: byteOffset,
    recorded: snippet(recordedText, charOffset),
    replayed: snippet(replayedText, charOffset),
  };
}

const SNIPPET_BEFORE = 24;
const SNIPPET_AFTER = 56;

function snippet(text: string, offset: number, start = Math.max(0, offset - SNIPPET_BEFORE)): string {
  const end = Math.min(text.length, offset + SNIPPET_AFTER);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
