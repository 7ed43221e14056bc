import type { Exchange } from '../compare/exchange.ts';
import { generalizePath, pathCovers } from '../compare/json-path.ts';
import { jsonValueSpans } from '../compare/json-tokens.ts';

export const REDACTED = 'REDACTED';

/**
 * What `record --redact` masks before an exchange is written: JSON paths (`$.data[*].client.email`, array
 * indices not told apart) in request and response bodies, and query parameters (`api_key`) in the URL and in
 * form-encoded bodies. Masked values become "REDACTED"; every other byte stays as recorded.
 */
export class Redaction {
  private readonly paths: string[];
  private readonly params: Set<string>;

  constructor(specs: readonly string[]) {
    this.paths = specs.filter((spec) => spec.startsWith('$')).map(generalizePath);
    this.params = new Set(specs.filter((spec) => !spec.startsWith('$')));
  }

  get empty(): boolean {
    return this.paths.length === 0 && this.params.size === 0;
  }

  apply(exchange: Exchange): Exchange {
    if (this.empty) return exchange;
    return {
      ...exchange,
      url: this.maskUrl(exchange.url),
      requestBody: exchange.requestBody && this.maskBody(exchange.requestBody),
      responseBody: this.maskBody(exchange.responseBody),
    };
  }

  private maskUrl(url: string): string {
    const question = url.indexOf('?');
    if (question < 0 || this.params.size === 0) return url;
    return url.slice(0, question + 1) + this.maskForm(url.slice(question + 1));
  }

  /** `a=1&b=2` with the chosen parameters' values masked, the rest of the string untouched. */
  private maskForm(query: string): string {
    return query
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=');
        if (equals < 0) return pair;
        const name = safeDecode(pair.slice(0, equals));
        return this.params.has(name) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
      })
      .join('&');
  }

  private maskBody(bytes: Uint8Array): Uint8Array {
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const spans =
      this.paths.length > 0
        ? jsonValueSpans(text, (path) => this.paths.some((rule) => pathCovers(rule, generalizePath(path))))
        : undefined;
    if (spans) {
      if (spans.length === 0) return bytes;
      let out = '';
      let from = 0;
      for (const [start, end] of spans) {
        out += `${text.slice(from, start)}"${REDACTED}"`;
        from = end;
      }
      return new TextEncoder().encode(out + text.slice(from));
    }
    if (this.params.size > 0 && /^[^\s{}[\]"]*=/.test(text)) return new TextEncoder().encode(this.maskForm(text));
    return bytes;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
