import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { destinationProblem, isPublicAddress, type LookupFn } from '../core/ssrf-guard.ts';

const resolvesTo =
  (...addresses: string[]): LookupFn =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('SSRF guard', () => {
  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.251',
      '239.1.1.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.1.1.1',
      '64:ff9b::a9fe:a9fe',
      '2001:db8::1',
      // Issue 16: the IPv4-compatible form a URL writes for [::127.0.0.1], and 6to4 forms of 127.0.0.1.
      '::7f00:1',
      '::127.0.0.1',
      '0:0:0:0:0:0:7f00:1',
      '2002:7f00:1::',
      '2002:7f00:0001:0:0:0:0:1',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101::5',
      '2001:0:4136:e378::1',
      'not-an-ip',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
    }
    for (const address of [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::1',
    ]) {
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: true });
    }
  });

  it('refuses [::127.0.0.1] and the 6to4 form of 127.0.0.1 as webhook destinations', async () => {
    expect(await destinationProblem('https://[::127.0.0.1]/hook', false)).toBe('private_address');
    expect(await destinationProblem('https://[2002:7f00:1::]/hook', false)).toBe('private_address');
    expect(await destinationProblem('https://x.example/hook', false, resolvesTo('2002:7f00:1::1'))).toBe(
      'private_address',
    );
  });

  it('refuses any private address in the 10/8 and 192.168/16 ranges (property)', () => {
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c) => {
        expect(isPublicAddress(`10.${a}.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`192.168.${b}.${c}`)).toBe(false);
        expect(isPublicAddress(`::ffff:10.${a}.${b}.${c}`)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a host when any of its addresses is private', async () => {
    expect(
      await destinationProblem('https://hooks.partner.test/x', false, resolvesTo('93.184.216.34')),
    ).toBeUndefined();
    expect(
      await destinationProblem('https://hooks.partner.test/x', false, resolvesTo('93.184.216.34', '10.0.0.5')),
    ).toBe('private_address');
    expect(await destinationProblem('https://hooks.partner.test/x', false, resolvesTo())).toBe('unresolvable_host');
    const failing: LookupFn = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await destinationProblem('https://hooks.partner.test/x', false, failing)).toBe('unresolvable_host');
  });

  it('requires https unless private destinations are allowed, and a well-formed URL', async () => {
    expect(await destinationProblem('http://hooks.partner.test/x', false, resolvesTo('93.184.216.34'))).toBe(
      'https_required',
    );
    expect(await destinationProblem('ftp://hooks.partner.test/x', true)).toBe('https_required');
    expect(await destinationProblem('http://127.0.0.1:9000/x', true)).toBeUndefined();
    expect(await destinationProblem('::nonsense', false)).toBe('invalid_url');
  });
});
