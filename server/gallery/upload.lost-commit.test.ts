import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { type AppBehindRelay, startAppBehindRelay } from '../testing/app-behind-relay.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { PNG_1X1 } from './test-fixtures.ts';

/**
 * An upload whose connection died after its COMMIT was sent (503 errors.qc.write_outcome_unknown) may have recorded
 * its images: their bytes must stay. The upload removed them as after a refused write, so when the COMMIT had gone
 * through the gallery listed an image whose bytes were gone, and the retry with the same key replayed that image.
 * A relay passes the COMMIT to PostgreSQL and drops the client, as a terminated backend or a failover does.
 */
describe.skipIf(!process.env.DATABASE_URL)('POST /gallery when the connection dies during COMMIT', () => {
  let t: TestApp;
  let relay: AppBehindRelay;
  let demo: Demo;

  beforeAll(async () => {
    t = await startTestApp();
    demo = await t.demo();
    relay = await startAppBehindRelay();
  });
  afterAll(async () => {
    await relay?.close();
    await t?.close();
  });

  it('keeps the stored bytes, so the image its retry replays is served', async () => {
    const form = new FormData();
    form.append('images', new File([PNG_1X1], 'cut.png', { type: 'image/png' }));
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    // Read before the body: Bun drops the generated content-type once the body is consumed.
    const type = request.headers.get('content-type') as string;
    const body = new Uint8Array(await request.arrayBuffer());
    const upload = async () => {
      const res = await relay.app.handle(
        new Request('http://localhost/v1/qc/gallery', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${demo.personal_token}`,
            'idempotency-key': 'gallery-cut-key',
            'content-type': type,
          },
          body,
        }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };

    relay.proxy.cutWhen = Buffer.from('commit');
    const cut = await upload().finally(() => {
      relay.proxy.cutWhen = undefined;
    });
    expect([cut.status, cut.body]).toEqual([503, errorEnvelope('errors.qc.write_outcome_unknown')]);

    const retry = await upload();
    expect(retry.status).toBe(201);
    const url = new URL(retry.body.data.images[0].url as string);
    const served = await relay.app.handle(new Request(`http://localhost${url.pathname}`));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(PNG_1X1));
  });
});
