import { describe, expect, it } from 'bun:test';
import { parseBody, parseQuery, readBody } from './php-input.ts';

describe('legacy input parsing', () => {
  it('keeps a value whose escapes decode to bytes that are not UTF-8 as sent: no string holds those bytes', () => {
    expect(parseQuery('?a=%E0%A4%A&b=x+y&guests[adults]=2')).toEqual({
      a: '%E0%A4%A',
      b: 'x y',
      guests: { adults: '2' },
    });
  });

  it('decodes every well-formed escape and keeps a stray percent sign as sent, like PHP urldecode', () => {
    expect(parseQuery('?a=100%&b=Sea%20View%&c=x%41%zz&d=%C3%A9%2&e=caf%C3%A9+50%+off')).toEqual({
      a: '100%',
      b: 'Sea View%',
      c: 'xA%zz',
      d: 'é%2',
      e: 'café 50% off',
    });
  });

  it('keeps __proto__ and other inherited names as keys of the input: nothing reaches Object.prototype', () => {
    const input = parseQuery('__proto__[polluted]=yes&toString[x]=1&a[__proto__][b]=2&constructor=c');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(JSON.stringify(input)).toBe(
      '{"__proto__":{"polluted":"yes"},"toString":{"x":"1"},"a":{"__proto__":{"b":"2"}},"constructor":"c"}',
    );
    expect(parseBody('__proto__[polluted]=yes', 'application/x-www-form-urlencoded')).toBeDefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('appends `[]` at one more than the largest integer key, as PHP does, and 50000 appends in one pass', () => {
    expect(parseQuery('a[]=x&a[5]=y&a[]=z&a[-3]=w&a[]=v&b[-2]=1&b[]=2')).toEqual({
      a: { 0: 'x', 5: 'y', 6: 'z', '-3': 'w', 7: 'v' },
      b: { '-2': '1', 0: '2' },
    });
    // Each append rescanned every key before: 4000 in one URL held the event loop for 2 s, before any key check.
    const many = parseQuery('a[]=1&'.repeat(50_000)).a as Record<string, string>;
    expect(Object.keys(many).length).toBe(50_000);
    expect(many['49999']).toBe('1');
  });

  it('reads malformed JSON as no input, or as a form when the body says it is one', () => {
    expect(parseBody('{"a":', 'application/json')).toBeNull();
    expect(parseBody('a=1&b[]=2', 'application/x-www-form-urlencoded; charset=UTF-8')).toEqual({
      a: '1',
      b: { 0: '2' },
    });
    expect(parseBody('{"a":1}', null)).toEqual({ a: 1 });
  });

  it('reads a multipart body like $_POST: fields nest by bracket syntax, file parts and a malformed body are not input', async () => {
    const form = new FormData();
    form.append(' guests[adults]', '2');
    form.append('bm.code', 'BM 1');
    form.append('ids[]', 'a');
    form.append('ids[]', 'b');
    form.append('upload', new File(['{"a":1}'], 'a.json'));
    const post = (body: FormData | string, headers?: Record<string, string>) =>
      readBody(new Request('http://localhost/', { method: 'POST', body, headers }));
    expect(await post(form)).toEqual({ guests: { adults: '2' }, bm_code: 'BM 1', ids: { 0: 'a', 1: 'b' } });
    expect(await post('{"a":1}', { 'content-type': 'multipart/form-data; boundary=x' })).toBeNull();
    expect(await post('{"a":1}', { 'content-type': 'text/plain' })).toEqual({ a: 1 });
  });
});
