import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childPort } from './testing/free-port.ts';
import { TEST_KEY_ENCRYPTION_KEY, testAppPerFile } from './testing/harness.ts';

/**
 * A start that cannot go on for a cause the operator fixes says so in one line on stderr and exits 1, as a busy port
 * does (docs/operations.md, Configuration). These ended in a stack trace instead (or a message that hid the cause).
 */
const DATABASE = process.env.DATABASE_URL;
// The signing keys of the test database exist (sealed under the test key) before a process tries another key.
const t = testAppPerFile();

/** `bun <script>` with these variables: its exit status and what it wrote to stderr. */
async function run(script: string, env: Record<string, string | undefined>) {
  const proc = Bun.spawn([process.execPath, script], {
    env: {
      ...process.env,
      QC_LOG_LEVEL: 'error',
      QC_DEMO_ON_EMPTY: '0',
      QC_RETENTION_EVERY_MINUTES: '0',
      QC_OPERATOR_TOKEN: 'start-errors-operator-token',
      QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      PORT: String(childPort()),
      HOST: '127.0.0.1',
      ...env,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const [status, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { status, lines: err.trim().split('\n') };
}

/** Exit 1 and exactly one line on stderr, containing each of `words`. */
function expectOneLine(outcome: { status: number; lines: string[] }, ...words: string[]) {
  expect(outcome.lines).toHaveLength(1);
  for (const word of words) expect(outcome.lines[0]).toContain(word);
  expect(outcome.status).toBe(1);
}

describe('a start that cannot go on', () => {
  it('names a variable that takes a few values, with the values', async () => {
    expectOneLine(
      await run('server/main.ts', { QC_LOG_LEVEL: 'loud' }),
      "Invalid configuration: QC_LOG_LEVEL must be one of 'info', 'warn', 'error', 'silent'",
    );
  });

  it('names a DATABASE_SESSION_URL set without DATABASE_URL rather than starting on the embedded database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qc-start-errors-'));
    try {
      const session = `postgres://postgres@127.0.0.1:${childPort()}/qc`;
      expectOneLine(
        await run('server/main.ts', { DATABASE_URL: '', DATABASE_SESSION_URL: session, QC_DATA_DIR: dir }),
        'Invalid configuration: DATABASE_SESSION_URL is set without DATABASE_URL',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('names an unreachable DATABASE_URL with the cause, no stack', async () => {
    // Nothing listens on a child port nobody took.
    const url = `postgres://postgres@127.0.0.1:${childPort()}/none`;
    expectOneLine(await run('server/main.ts', { DATABASE_URL: url }), 'DATABASE_URL', 'ECONNREFUSED');
  }, 30_000);

  it.skipIf(!DATABASE)(
    'names a key-encryption key that does not open the database signing keys',
    async () => {
      expect(t.deps.keys).toBeDefined();
      const other = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
      expectOneLine(
        await run('server/main.ts', { DATABASE_URL: DATABASE, QC_KEY_ENCRYPTION_KEY: other }),
        'QC_KEY_ENCRYPTION_KEY',
        'cannot be opened',
      );
    },
    30_000,
  );

  it.skipIf(!DATABASE)(
    'names QC_LEGACY_SHADOW_IGNORE_FILE when the file is missing or malformed',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'qc-ignore-'));
      try {
        const missing = join(dir, 'missing.txt');
        expectOneLine(
          await run('server/main.ts', { DATABASE_URL: DATABASE, QC_LEGACY_SHADOW_IGNORE_FILE: missing }),
          `QC_LEGACY_SHADOW_IGNORE_FILE ${missing}`,
          'ENOENT',
        );
        const malformed = join(dir, 'malformed.txt');
        writeFileSync(malformed, 'GET /api/pms/v1/x\n');
        expectOneLine(
          await run('server/main.ts', { DATABASE_URL: DATABASE, QC_LEGACY_SHADOW_IGNORE_FILE: malformed }),
          `QC_LEGACY_SHADOW_IGNORE_FILE ${malformed}`,
          'line 1',
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('npm run retention', () => {
  it('stops on a wrong variable in one line naming it', async () => {
    expectOneLine(
      await run('scripts/retention.ts', { QC_RETENTION_DELIVERY_DAYS: '7' }),
      'QC_RETENTION_DELIVERY_DAYS',
      'greater or equal to 90',
    );
  });
});
