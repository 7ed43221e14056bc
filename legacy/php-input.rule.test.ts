import { describe, expect, it } from 'bun:test';
import { parseBody, parseQuery } from './php-input.ts';

describe('legacy input parsing', () => {
  it('keeps a value with a malformed percent escape as sent, like PHP urldecode', () => {
    expect(parseQuery('?a=%E0%A4%A&b=x+y&guests[adults]=2')).toEqual({
      a: '%E0%A4%A',
      b: 'x y',
      guests: { adults: '2' },
    });
  });

  it('reads malformed JSON as no input, or as a form when the body says it is one', () => {
    expect(parseBody('{"a":', 'application/json')).toBeNull();
    expect(parseBody('a=1&b[]=2', 'application/x-www-form-urlencoded; charset=UTF-8')).toEqual({
      a: '1',
      b: { 0: '2' },
    });
    expect(parseBody('{"a":1}', null)).toEqual({ a: 1 });
  });
});
