import { describe, expect, it } from 'bun:test';
import { dump, legacyResponse, PhpFloat, phpJsonEncode, RawJson, thrownErrorMessage } from './bytes.ts';

// Expected strings are what PHP 7.1+ `json_encode` (default flags, serialize_precision -1) prints.
describe('PHP json_encode bytes', () => {
  it('escapes slashes, quotes, backslashes and control characters like PHP', () => {
    expect(phpJsonEncode('a/b "c" \\ \n\r\t\b\f \u0001')).toBe('"a\\/b \\"c\\" \\\\ \\n\\r\\t\\b\\f \\u0001"');
  });

  it('writes non-ASCII as lowercase \\u escapes, astral characters as surrogate pairs', () => {
    expect(phpJsonEncode('Café – 😀')).toBe('"Caf\\u00e9 \\u2013 \\ud83d\\ude00"');
  });

  it('leaves <, >, &, apostrophe and DEL alone (no JSON_HEX_* flags)', () => {
    expect(phpJsonEncode("<a href='x'>&\u007f")).toBe(`"<a href='x'>&\u007f"`);
  });

  it('keeps key order, writes no spaces, empty object as {} and empty list as []', () => {
    expect(phpJsonEncode({ b: 1, a: [true, null, {}], c: [] })).toBe('{"b":1,"a":[true,null,{}],"c":[]}');
  });

  it('prints floats as PHP: a .0 on integral values, exponent form outside 1e-4 .. 1e17', () => {
    const cases: [number, string][] = [
      [25, '25.0'],
      [0.1, '0.1'],
      [-12.5, '-12.5'],
      [0.0001, '0.0001'],
      [0.00001, '1.0e-5'],
      [1234.5678, '1234.5678'],
      [1e15, '1000000000000000.0'],
      [1e17, '1.0e+17'],
      [1.5e25, '1.5e+25'],
      [0, '0.0'],
    ];
    for (const [n, php] of cases) expect(phpJsonEncode(new PhpFloat(n))).toBe(php);
    expect(phpJsonEncode(2.5)).toBe('2.5');
    expect(phpJsonEncode(120)).toBe('120');
  });

  it('splices raw JSON verbatim', () => {
    expect(phpJsonEncode({ data: [new RawJson('{"x":1.0}')] })).toBe('{"data":[{"x":1.0}]}');
  });
});

describe('<dump>', () => {
  it('re-encodes the row as PHP decoded it: objects become arrays, an empty one a list', () => {
    expect(dump({ room_id: 1, date: '2030/01/01', extra: {} })).toBe(
      '{"room_id":1,"date":"2030\\/01\\/01","extra":[]}',
    );
    expect(dump({})).toBe('[]');
    expect(dump({ 0: 'a', 1: 'b' })).toBe('["a","b"]');
    expect(dump(5)).toBe('5');
  });
});

describe('responses', () => {
  it('carry exactly Content-Type: application/json', () => {
    const res = legacyResponse(200, { message: 'Success' });
    expect([...res.headers]).toEqual([['content-type', 'application/json']]);
  });

  it('render an unhandled failure with Msg and Code lines only; the SQLSTATE is the code of a database error', () => {
    const dbError = Object.assign(new Error('integer out of range'), { code: '22003' });
    expect(thrownErrorMessage(dbError)).toBe('Throw Error Exception\nMsg: integer out of range\nCode: 22003');
    expect(thrownErrorMessage(new TypeError('x is undefined'))).toBe(
      'Throw Error Exception\nMsg: x is undefined\nCode: 0',
    );
  });
});
