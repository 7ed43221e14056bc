import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { basicCredentials, bearerToken } from './credentials.ts';

const basic = (raw: string) => `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;

describe('the Authorization header parser', () => {
  it('reads a Basic header as percent-decoded id and secret', () => {
    expect(basicCredentials(basic('qcc_a%2Bb:s%3Acret'))).toEqual({ id: 'qcc_a+b', secret: 's:cret' });
    expect(basicCredentials(basic(':only-secret'))).toEqual({ id: '', secret: 'only-secret' });
  });

  it('reads a Basic header it cannot decode as no credentials instead of throwing', () => {
    expect(basicCredentials(basic('qcc_x%zz:secret'))).toBeUndefined();
    expect(basicCredentials(basic('qcc_x:%E0%A4'))).toBeUndefined();
    expect(basicCredentials(basic('no-colon'))).toBeUndefined();
    expect(basicCredentials(basic('qcc_x%00:secret'))).toBeUndefined();
    expect(basicCredentials('Basic')).toBeUndefined();
    expect(basicCredentials('Bearer abc')).toBeUndefined();
    expect(basicCredentials(null)).toBeUndefined();
  });

  it('never throws, whatever the header holds', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (id, secret) => {
        basicCredentials(basic(`${id}:${secret}`));
        basicCredentials(`Basic ${id}`);
        bearerToken(`Bearer ${id}`);
      }),
    );
  });

  it('reads the token of a Bearer header, in any letter case of the scheme', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc ')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
