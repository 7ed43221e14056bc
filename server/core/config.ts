import { type Static, Type as T } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Configuration, parsed once at boot from the environment. Every variable is read here and nowhere else;
 * a wrong value stops start-up with a message naming the variable.
 */
const EnvSchema = T.Object({
  PORT: T.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: T.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: T.Optional(T.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: T.Optional(T.String({ pattern: '^rediss?://' })),
  QC_OPERATOR_TOKEN: T.Optional(T.String({ minLength: 16 })),
  QC_DATA_DIR: T.String({ minLength: 1, default: '.data' }),
  QC_PUBLIC_URL: T.Optional(T.String({ pattern: '^https?://' })),
  QC_LOG_LEVEL: T.Union([T.Literal('info'), T.Literal('warn'), T.Literal('error'), T.Literal('silent')], {
    default: 'info',
  }),
  QC_DEMO_ON_EMPTY: T.Union([T.Literal('1'), T.Literal('0')], { default: '1' }),
  /** Lets webhook destinations resolve to loopback/private addresses (local development and tests only). */
  QC_WEBHOOK_ALLOW_PRIVATE: T.Union([T.Literal('1'), T.Literal('0')], { default: '0' }),
});

export type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  operatorToken: string | undefined;
  dataDir: string;
  publicUrl: string | undefined;
  logLevel: Env['QC_LOG_LEVEL'];
  demoOnEmpty: boolean;
  webhookAllowPrivate: boolean;
}

export class ConfigError extends Error {}

export function parseConfig(source: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value === undefined || value === '') continue;
    raw[key] = key === 'PORT' && /^\d+$/.test(value) ? Number(value) : value;
  }
  const env = Value.Default(EnvSchema, raw) as Env;
  const first = Value.Errors(EnvSchema, env).First();
  if (first) {
    const variable = first.path.replace(/^\//, '') || 'environment';
    throw new ConfigError(`Invalid configuration: ${variable} ${first.message.toLowerCase()}`);
  }
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    operatorToken: env.QC_OPERATOR_TOKEN,
    dataDir: env.QC_DATA_DIR,
    publicUrl: env.QC_PUBLIC_URL,
    logLevel: env.QC_LOG_LEVEL,
    demoOnEmpty: env.QC_DEMO_ON_EMPTY === '1',
    webhookAllowPrivate: env.QC_WEBHOOK_ALLOW_PRIVATE === '1',
  };
}
