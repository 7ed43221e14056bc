import { appendSegment } from './json-path.ts';

/**
 * The raw tokens of a JSON text (keys, scalars as written, brackets, whitespace), each with its byte offset in
 * the text, leaving out the values at some paths. Two bodies whose fields differ only where noise is allowed must
 * still match byte for byte everywhere else (key order, escaping, number formatting are legacy behaviour):
 * comparing their token lists with those fields left out checks exactly that, without re-serialising either side.
 * A left-out object member disappears whole (key, value and comma), so a field present in one answer only is
 * left out cleanly; a left-out array element stays as one placeholder token, since positions matter in arrays.
 *
 * Answers `undefined` when the text is not one well-formed JSON value.
 */
export interface JsonTokens {
  tokens: string[];
  offsets: number[];
}

export function jsonTokens(text: string, leaveOut: (path: string) => boolean): JsonTokens | undefined {
  const scanner = new Scanner(text, leaveOut);
  // A root left out (two different scalars) still has to be well-formed JSON: scanned, not kept.
  if (!scannedWhole(scanner, text, leaveOut('$'))) return undefined;
  return { tokens: scanner.tokens, offsets: scanner.offsets };
}

/**
 * Byte-exact spans `[start, end)` of the values whose path is selected (outermost only), for rewriting some
 * values of a JSON text in place (redaction) while every other byte stays. `undefined` when not JSON.
 */
export function jsonValueSpans(text: string, select: (path: string) => boolean): Array<[number, number]> | undefined {
  const scanner = new Scanner(text, () => false, select);
  return scannedWhole(scanner, text) ? scanner.spans : undefined;
}

/**
 * Every scalar value of a JSON text with its path and byte-exact span `[start, end)` in the text (string
 * positions), for rewriting single values in place (the replay's id correspondence). `undefined` when not JSON.
 */
export function jsonScalars(text: string): Array<{ path: string; start: number; end: number }> | undefined {
  const scanner = new Scanner(text, () => false);
  scanner.scalars = [];
  return scannedWhole(scanner, text) ? scanner.scalars : undefined;
}

/**
 * Scans `text` as one JSON value with only white space around it; false when it is not JSON. `muteRoot`:
 * the leading white space is kept but the value itself is scanned without being kept.
 */
function scannedWhole(scanner: Scanner, text: string, muteRoot = false): boolean {
  try {
    scanner.space();
    if (muteRoot) scanner.mute();
    scanner.value('$');
    scanner.space();
    return scanner.pos === text.length;
  } catch (err) {
    if (err instanceof MalformedJson) return false;
    throw err;
  }
}

class MalformedJson extends Error {}

/** A key token's text; one JSON cannot read (a control character written raw) makes the body not JSON. */
function keyOf(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    throw new MalformedJson();
  }
}

const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\n\r]+/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

class Scanner {
  pos = 0;
  readonly tokens: string[] = [];
  readonly offsets: number[] = [];
  readonly spans: Array<[number, number]> = [];
  scalars: Array<{ path: string; start: number; end: number }> | undefined;
  /** While above zero, tokens are scanned but not kept (inside a left-out value). */
  private muted = 0;

  constructor(
    private readonly text: string,
    private readonly leaveOut: (path: string) => boolean,
    private readonly select?: (path: string) => boolean,
  ) {}

  mute(): void {
    this.muted++;
  }

  private emit(token: string, offset: number): void {
    if (this.muted > 0) return;
    this.tokens.push(token);
    this.offsets.push(offset);
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.pos;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.pos += found.length;
    return found;
  }

  space(): void {
    const start = this.pos;
    const found = this.match(SPACE);
    if (found) this.emit(found, start);
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) throw new MalformedJson();
    this.emit(char, this.pos);
    this.pos++;
  }

  value(path: string): void {
    const start = this.pos;
    const c = this.text[this.pos];
    if (c === '{') this.object(path);
    else if (c === '[') this.array(path);
    else {
      const token = this.match(c === '"' ? STRING : SCALAR);
      if (token === undefined) throw new MalformedJson();
      this.emit(token, start);
      this.scalars?.push({ path, start, end: this.pos });
    }
    if (this.select?.(path)) {
      while (this.spans.length && (this.spans.at(-1) as [number, number])[0] >= start) this.spans.pop();
      this.spans.push([start, this.pos]);
    }
  }

  private object(path: string): void {
    if (this.opensEmpty('{', '}')) return;
    for (;;) {
      const keyStart = this.pos;
      const key = this.match(STRING);
      if (key === undefined) throw new MalformedJson();
      const memberPath = appendSegment(path, keyOf(key));
      const leftOut = this.leaveOut(memberPath);
      if (leftOut) this.muted++;
      this.emit(key, keyStart);
      this.space();
      this.expect(':');
      this.space();
      this.value(memberPath);
      this.space();
      if (leftOut) this.muted--;
      if (!this.another('}')) return;
    }
  }

  private array(path: string): void {
    if (this.opensEmpty('[', ']')) return;
    for (let index = 0; ; index++) {
      const elementPath = appendSegment(path, index);
      if (this.leaveOut(elementPath)) {
        this.emit('\u0000', this.pos);
        this.muted++;
        this.value(elementPath);
        this.muted--;
      } else this.value(elementPath);
      this.space();
      if (!this.another(']')) return;
    }
  }

  /** Reads the opening of an object or array; true when it closes at once (nothing inside to walk). */
  private opensEmpty(open: '{' | '[', close: '}' | ']'): boolean {
    this.expect(open);
    this.space();
    if (this.text[this.pos] !== close) return false;
    this.expect(close);
    return true;
  }

  /**
   * After a member or element: true when a comma says another follows, else reads the container's close.
   * Commas are implied by the structure: leaving them out lets a left-out member vanish without a trace.
   */
  private another(close: '}' | ']'): boolean {
    if (this.text[this.pos] === ',') {
      this.pos++;
      this.space();
      return true;
    }
    this.expect(close);
    return false;
  }
}
