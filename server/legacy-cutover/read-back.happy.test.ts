import { describe, expect, it } from 'bun:test';
import { readBackOf } from './read-back.ts';

const write = (query: string) => ({
  method: 'POST',
  pathAndQuery: `/api/pms/v1/availability/updateAvailability?${query}`,
  headers: [['content-type', 'application/json']] as Array<[string, string]>,
  body: new TextEncoder().encode('{"values":[{"room_id":1,"date":"2030-07-01","qty":2}]}'),
});

describe('the read-back of a shadowed updateAvailability', () => {
  it('reads back with the key PHP authenticated the write with: the last of repeated api_key, or api.key', () => {
    for (const query of ['api_key=old&api_key=k%2By', 'api.key=k%2By', 'api_key=k%2By']) {
      expect(readBackOf(write(query))?.pathAndQuery).toBe(
        '/api/pms/v1/availability/getAvailability?api_key=k%2By&date_from=2030-07-01&date_to=2030-07-01',
      );
    }
  });

  it('is not asked for a write without a key', () => {
    expect(readBackOf(write('x=1'))).toBeUndefined();
    expect(readBackOf(write('api_key[]=k'))).toBeUndefined();
  });
});
