import { describe, expect, it } from 'bun:test';
import { ConfigError, parseConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to port 8080 and the embedded database', () => {
    const config = parseConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redis).toBeUndefined();
    expect(config.dataDir).toBe('.data');
  });

  it('stops on a wrong value with a message naming the variable', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => parseConfig({ QC_OPERATOR_TOKEN: 'short' })).toThrow(/QC_OPERATOR_TOKEN/);
  });

  it('stops on a session or replica URL without DATABASE_URL instead of running on the embedded database', () => {
    const url = 'postgres://qc@db.internal:5432/qc';
    for (const variable of ['DATABASE_SESSION_URL', 'DATABASE_REPLICA_URL']) {
      expect(() => parseConfig({ [variable]: url })).toThrow(
        `Invalid configuration: ${variable} is set without DATABASE_URL`,
      );
      expect(parseConfig({ DATABASE_URL: url, [variable]: url }).databaseUrl).toBe(url);
    }
  });

  it('names what a wrong value breaks in the words of its rule, a pattern with its letter case', () => {
    // The whole message was lowercased: the pattern read '^[a-za-z0-9_-]{43}$', which no key matches.
    expect(() => parseConfig({ QC_KEY_ENCRYPTION_KEY: 'short' })).toThrow(
      "Invalid configuration: QC_KEY_ENCRYPTION_KEY expected string to match '^[A-Za-z0-9_-]{43}$'",
    );
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow('Invalid configuration: PORT expected integer');
  });

  it('lists the values a variable takes when it takes a few, instead of "expected union value"', () => {
    const allowed: Record<string, string[]> = {
      QC_LOG_LEVEL: ['info', 'warn', 'error', 'silent'],
      QC_DEMO_ON_EMPTY: ['1', '0'],
      QC_REUSE_PORT: ['1', '0'],
      QC_WEBHOOK_ALLOW_PRIVATE: ['1', '0'],
      QC_LEGACY_UPSTREAM_ALLOW_PRIVATE: ['1', '0'],
      QC_TRUSTED_PROXY_HEADER: ['x-forwarded-for', 'forwarded'],
    };
    for (const [variable, values] of Object.entries(allowed)) {
      for (const value of values) expect(() => parseConfig({ [variable]: value })).not.toThrow();
      expect(() => parseConfig({ [variable]: 'yes' })).toThrow(
        `Invalid configuration: ${variable} must be one of ${values.map((v) => `'${v}'`).join(', ')}`,
      );
    }
  });

  it('reads every documented variable', () => {
    const config = parseConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h:6379',
      QC_OPERATOR_TOKEN: '0123456789abcdef',
      QC_DATA_DIR: '/tmp/qc',
    });
    expect(config).toMatchObject({
      port: 9000,
      databaseUrl: 'postgres://u@h/db',
      redis: { kind: 'single', url: 'redis://h:6379' },
      operatorToken: '0123456789abcdef',
      dataDir: '/tmp/qc',
    });
  });

  it('reads a Redis Cluster from REDIS_URL: its seed nodes, credentials and TLS', () => {
    expect(parseConfig({ REDIS_URL: 'redis+cluster://10.0.0.1:7000,10.0.0.2:7001/' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(parseConfig({ REDIS_URL: 'rediss+cluster://app:p%40ss:w@[::1]:7000' }).redis).toEqual({
      kind: 'cluster',
      nodes: [{ host: '::1', port: 7000 }],
      username: 'app',
      password: 'p@ss:w',
      tls: true,
    });
    expect(parseConfig({ REDIS_URL: 'rediss://h:6380/2' }).redis).toEqual({ kind: 'single', url: 'rediss://h:6380/2' });
  });

  it('stops on a cluster URL that names no usable node', () => {
    for (const url of ['redis+cluster://', 'redis+cluster://host', 'redis+cluster://h:0', 'redis+cluster://h:1/3']) {
      expect(() => parseConfig({ REDIS_URL: url })).toThrow(/REDIS_URL must be redis\+cluster:\/\//);
    }
  });
});

describe('the server idle timeout and the legacy upstream deadline (issue 23)', () => {
  it('leaves every allowed upstream deadline at least 10 s before the idle close, so a hung upstream is a 504', () => {
    // Before, both were 30 s and the idle close usually won: an empty reply instead of the documented 504.
    for (const ms of [1, 1000, 20_000, 30_000, 30_001, 120_000, 240_000]) {
      const config = parseConfig({ QC_LEGACY_UPSTREAM_TIMEOUT_MS: String(ms) });
      expect(config.idleTimeoutSeconds * 1000).toBeGreaterThanOrEqual(ms + 10_000);
      expect(config.idleTimeoutSeconds).toBeLessThanOrEqual(255);
    }
    // Bun's limit is 255 s: a deadline it could not outlast is refused at start-up.
    expect(() => parseConfig({ QC_LEGACY_UPSTREAM_TIMEOUT_MS: '250000' })).toThrow(/QC_LEGACY_UPSTREAM_TIMEOUT_MS/);
  });

  it('names the session URL beside a pooled DATABASE_URL', () => {
    const config = parseConfig({
      DATABASE_URL: 'postgres://u@pgbouncer:6432/qc',
      DATABASE_SESSION_URL: 'postgres://u@primary:5432/qc',
    });
    expect(config.databaseSessionUrl).toBe('postgres://u@primary:5432/qc');
    expect(config.dbStuckLivenessMs).toBe(30_000);
    expect(() => parseConfig({ DATABASE_SESSION_URL: 'mysql://x' })).toThrow(/DATABASE_SESSION_URL/);
  });
});
