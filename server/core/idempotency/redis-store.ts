import { type RedisClient, RedisScript } from '../redis.ts';
import type { Claim, Held, IdempotencyStore, StoredResponse } from './store.ts';

// A record is a hash: state (running|done), fp (body fingerprint), lease, exp (service-clock ms at which
// a done record stops counting), resp (the stored response as JSON). Redis expiries only collect keys:
// LEASE_MS while running, a little over a day once done.
const CLAIM = new RedisScript(`
local cur = redis.call('HMGET', KEYS[1], 'state', 'fp', 'exp', 'resp')
local state = cur[1]
if state == 'done' and tonumber(cur[3]) <= tonumber(ARGV[3]) then state = false end
if not state then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'state', 'running', 'fp', ARGV[1], 'lease', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'started'}
end
if cur[2] ~= ARGV[1] then return {'conflict'} end
if state == 'running' then return {'in_flight'} end
return {'replay', cur[4]}
`);

// Read only: what the key holds, as CLAIM would find it (a done record past its exp counts as nothing).
const PEEK = new RedisScript(`
local cur = redis.call('HMGET', KEYS[1], 'state', 'fp', 'exp', 'resp')
if not cur[1] or (cur[1] == 'done' and tonumber(cur[3]) <= tonumber(ARGV[1])) then return false end
return {cur[2], cur[4]}
`);

const COMPLETE = new RedisScript(`
if redis.call('HGET', KEYS[1], 'lease') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'resp', ARGV[2], 'exp', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);

const RENEW = new RedisScript(`
local cur = redis.call('HMGET', KEYS[1], 'state', 'lease')
if cur[1] == 'running' and cur[2] == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);

const RELEASE = new RedisScript(`
local cur = redis.call('HMGET', KEYS[1], 'state', 'lease')
if cur[1] == 'running' and cur[2] == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`);

const KEEP_DONE_MS = 25 * 3600_000;

/** Records shared by every server process on one Redis, so a retry to another process still replays. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async claim(key: string, fingerprint: string, nowMs: number, leaseMs: number): Promise<Claim> {
    const lease = crypto.randomUUID();
    const [kind, stored] = (await CLAIM.run(this.redis, [this.#key(key)], [fingerprint, lease, nowMs, leaseMs])) as [
      string,
      string | undefined,
    ];
    if (kind === 'started') return { kind, lease };
    if (kind === 'replay') return { kind, response: JSON.parse(stored as string) as StoredResponse };
    return { kind: kind as 'conflict' | 'in_flight' };
  }

  async peek(key: string, nowMs: number): Promise<Held | undefined> {
    const held = (await PEEK.run(this.redis, [this.#key(key)], [nowMs])) as [string, string | null] | null;
    if (!held) return undefined;
    const [fingerprint, stored] = held;
    return stored ? { fingerprint, response: JSON.parse(stored) as StoredResponse } : { fingerprint };
  }

  async complete(key: string, lease: string, response: StoredResponse, expiresAtMs: number): Promise<void> {
    await COMPLETE.run(this.redis, [this.#key(key)], [lease, JSON.stringify(response), expiresAtMs, KEEP_DONE_MS]);
  }

  async renew(key: string, lease: string, leaseMs: number): Promise<void> {
    await RENEW.run(this.redis, [this.#key(key)], [lease, leaseMs]);
  }

  async release(key: string, lease: string): Promise<void> {
    await RELEASE.run(this.redis, [this.#key(key)], [lease]);
  }

  #key(key: string): string {
    return `${this.prefix}idem:${key}`;
  }
}
