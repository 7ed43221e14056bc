import type { Db } from '../core/db/db.ts';

/**
 * The same database seen through a hook on every statement's text and values (in transactions and savepoints too):
 * to count what a request reads, or to fail one statement the way a lost connection does (the hook throws).
 */
export function interceptStatements(db: Db, hook: (text: string, values: readonly unknown[]) => void): Db {
  const wrap = (inner: Db): Db => ({
    kind: inner.kind,
    sql: (async (strings: TemplateStringsArray, ...values: unknown[]) => {
      hook(strings.join('$'), values);
      return inner.sql(strings, ...values);
    }) as Db['sql'],
    query: (async (text: string, params?: unknown[]) => {
      hook(text, params ?? []);
      return inner.query(text, params);
    }) as Db['query'],
    affected: async (strings, ...values) => {
      hook(strings.join('$'), values);
      return inner.affected(strings, ...values);
    },
    tx: (fn) => inner.tx((tx) => fn(wrap(tx))),
    savepoint: (fn) => inner.savepoint((tx) => fn(wrap(tx))),
    listen: (channel, onNotify) => inner.listen(channel, onNotify),
    notify: (channel, payload) => inner.notify(channel, payload),
    close: () => inner.close(),
    closed: () => inner.closed(),
  });
  return wrap(db);
}
