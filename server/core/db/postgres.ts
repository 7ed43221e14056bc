import postgres from 'postgres';
import { type Db, type Row, toQuery } from './db.ts';

// Same row types as the PGlite adapter: int8/numeric as numbers, date as 'YYYY-MM-DD'.
const types = {
  int8: { to: 20, from: [20], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  numeric: { to: 1700, from: [1700], serialize: (x: unknown) => String(x), parse: (x: string) => Number(x) },
  date: { to: 1082, from: [1082], serialize: (x: unknown) => String(x), parse: (x: string) => x },
};

type Sql = postgres.Sql | postgres.TransactionSql;

function wrap(sql: Sql, end: () => Promise<void>): Db {
  const query = async <T>(text: string, params: unknown[] = []) =>
    (await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true })) as unknown as T[];
  return {
    kind: 'postgres',
    query,
    sql: <T = Row>(strings: TemplateStringsArray, ...values: unknown[]) => query<T>(...toQuery(strings, values)),
    tx: async <T>(fn: (tx: Db) => Promise<T>) => {
      if (!('begin' in sql)) throw new Error('nested transactions are not supported; pass the tx handle down');
      return (await (sql as postgres.Sql).begin((tx) => fn(wrap(tx, end)))) as T;
    },
    close: end,
  };
}

export function openPostgres(url: string, options: { max?: number } = {}): Db {
  const sql = postgres(url, {
    max: options.max ?? 10,
    types: types as unknown as Record<string, postgres.PostgresType>,
    onnotice: () => {},
    connection: { application_name: 'qc-service' },
  });
  return wrap(sql, () => sql.end({ timeout: 5 }));
}
