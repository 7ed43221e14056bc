/**
 * The small database interface both backends implement: PostgreSQL through postgres.js, or embedded PGlite.
 * SQL is plain PostgreSQL and lives in the file that uses it. Values are always bound parameters.
 *
 * Row types are normalised across backends: int8 and numeric come back as JS numbers, `date` as
 * 'YYYY-MM-DD' strings, timestamptz as Date, json/jsonb parsed.
 */
export interface Db {
  readonly kind: 'postgres' | 'pglite';
  /** Tagged template: each `${value}` becomes a bound parameter. */
  sql<T = Row>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /** Text with $1.. placeholders and its parameters, for the few statements built dynamically. */
  query<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn in one transaction; the handle passed in must be used for every statement of it. */
  tx<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type Row = Record<string, unknown>;

export function toQuery(strings: TemplateStringsArray, values: unknown[]): [string, unknown[]] {
  let text = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return [text, values];
}

/** SQLSTATE codes we map to error keys. */
export const SqlState = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
