import { describe, expect, it } from 'bun:test';
import { requestPath } from './request-path.ts';

describe('requestPath', () => {
  it('gives the pathname new URL() gives for the URLs a server hands in', () => {
    const urls = [
      'http://127.0.0.1:8080/v1/qc/properties',
      'http://127.0.0.1:8080/v1/qc/properties?page=2&per_page=10',
      'https://api.example.com/v1/qc/properties/abc/room_types?x=/y',
      'http://localhost/',
      'http://localhost/?q=1',
      'http://[::1]:3000/api/pms/v1/index.php?epClass=Reservations',
      'http://localhost/a%20b/c#fragment',
    ];
    expect(urls.map(requestPath)).toEqual(urls.map((url) => new URL(url).pathname));
  });

  it('answers / for a URL without a path', () => {
    expect(requestPath('http://localhost')).toBe('/');
  });
});
