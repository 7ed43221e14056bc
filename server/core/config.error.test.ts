import { describe, expect, it } from 'bun:test';
import { ConfigError, parseConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to port 8080 and the embedded database', () => {
    const config = parseConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.dataDir).toBe('.data');
  });

  it('stops on a wrong value with a message naming the variable', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
    expect(() => parseConfig({ QC_OPERATOR_TOKEN: 'short' })).toThrow(/QC_OPERATOR_TOKEN/);
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
      redisUrl: 'redis://h:6379',
      operatorToken: '0123456789abcdef',
      dataDir: '/tmp/qc',
    });
  });
});
