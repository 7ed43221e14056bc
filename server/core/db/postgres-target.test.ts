import { describe, expect, it } from 'bun:test';
import { existsSync } from 'node:fs';
import { openPostgres } from './postgres.ts';
import { postgresTarget } from './postgres-target.ts';

describe('postgresTarget', () => {
  it('moves libpq host parameter from the URL to the host option', () => {
    expect(postgresTarget('postgres://qc@localhost/qc?host=/var/run/postgresql')).toEqual({
      url: 'postgres://qc@localhost/qc',
      host: '/var/run/postgresql',
    });
  });

  it('keeps the other parameters on the URL', () => {
    expect(
      postgresTarget(
        'postgres://qc@h1:5432,h2:5432/qc?target_session_attrs=read-write&host=%2Frun%2Fpg&sslmode=disable',
      ),
    ).toEqual({
      url: 'postgres://qc@h1:5432,h2:5432/qc?target_session_attrs=read-write&sslmode=disable',
      host: '/run/pg',
    });
  });

  it('leaves a URL without the parameter as it is', () => {
    const url = 'postgres://qc@h1:5432,h2:5432/qc?target_session_attrs=read-write';
    expect(postgresTarget(url)).toEqual({ url });
    expect(postgresTarget('postgres://qc@localhost/qc')).toEqual({ url: 'postgres://qc@localhost/qc' });
  });
});

// The local server's socket, where the suite's PostgreSQL is this machine's (as in CI).
const SOCKET_DIR = '/var/run/postgresql';
const local = process.env.DATABASE_URL?.match(
  /^(postgres(?:ql)?:\/\/[^@/]*@)(127\.0\.0\.1|localhost)(?::(\d+))?(\/[^?]*)/,
);
const socketUrl = local ? `${local[1]}localhost:${local[3] ?? '5432'}${local[4]}?host=${SOCKET_DIR}` : undefined;

describe.skipIf(!socketUrl || !existsSync(`${SOCKET_DIR}/.s.PGSQL.${local?.[3] ?? '5432'}`))(
  'postgres over a Unix socket',
  () => {
    it('connects through the socket directory a URL names in host', async () => {
      const db = openPostgres(socketUrl as string, { max: 1, timeoutMs: 5000 });
      try {
        // No client address: the connection came through the socket, not TCP.
        const [row] = await db.sql<{ address: string | null }>`select inet_client_addr()::text as address`;
        expect(row).toEqual({ address: null });
      } finally {
        await db.close();
      }
    });
  },
);
