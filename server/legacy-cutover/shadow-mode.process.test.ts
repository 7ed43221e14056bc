import { afterAll, describe, expect, it } from 'bun:test';
import { legacyTest, NOW } from '../../legacy/legacy-test-fixture.ts';
import type { Db } from '../core/db/db.ts';
import { legacyShadowUncompared } from '../core/metrics.ts';
import {
  bodyBytes,
  type CorpusEntry,
  forceLive,
  type LegacyCall,
  pathAndQuery,
  portEntries,
  readBackEntry,
  reportFromService,
  scores,
  send,
  serveCorpus,
  setMode,
  writeCorpus,
} from './cutover-test-fixture.ts';
import { ShadowComparisons, type ShadowExchange } from './shadow-comparisons.ts';

/**
 * Shadow mode against a real legacy stand-in: `harness serve` on a corpus, as its own process. The corpus holds
 * what the port answered while live (the legacy service and the port in step) plus answers made deliberately
 * wrong, so every difference the comparison finds is one the test planted.
 */
const { t, f } = legacyTest();
const stops: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const stop of stops) await stop();
}, 30_000);

async function standIn(entries: CorpusEntry[], apiKey: string): Promise<string> {
  const served = await serveCorpus(await writeCorpus(entries, apiKey));
  stops.push(served.stop);
  return served.url;
}

/** Every row of the tables a legacy write touches, as one digest per table. */
const right: LegacyCall = { method: 'GET', path: 'property/getRoomsDetails' };
const wrong: LegacyCall = { method: 'GET', path: 'property/getPropertySettings?names=property' };

/**
 * A new key in shadow mode against a legacy stand-in that answers `right` with the port's own answer and
 * `wrong` with `wrongBody`: every `right` call compares equal, every `wrong` one differs.
 */
async function shadowKeyWithOneWrong(wrongBody: string): Promise<{ key: string; keyId: number }> {
  const { key, keyId } = await f.anotherKey();
  const [rightEntry] = await portEntries(t, [right], key);
  const wrongEntry = { call: wrong, status: 200, body: wrongBody };
  await setMode(t, keyId, 'shadow', await standIn([rightEntry as CorpusEntry, wrongEntry], key));
  return { key, keyId };
}

async function tableDigests(db: Db): Promise<Record<string, string>> {
  const tables = [
    'availability',
    'bookings',
    'booking_rooms',
    'legacy_booking_revisions',
    'legacy_customer_events',
    'legacy_pms_property_data',
    'outbox_events',
  ];
  const digests: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await db.query<{ n: number; digest: string }>(
      `select count(*) as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as digest from ${table} x`,
    );
    digests[table] = `${row?.n} ${row?.digest}`;
  }
  return digests;
}

describe('shadow mode', () => {
  it("answers the PMS with the legacy service's bytes, status and headers, and scores the port against them", async () => {
    const { key, keyId } = await f.anotherKey();
    const bookingId = await f.book();
    const reads: LegacyCall[] = [
      { method: 'GET', path: 'property/getRoomsDetails' },
      { method: 'GET', path: 'property/getPropertySettings?names=property,rooms' },
      { method: 'GET', path: `booking/getBookings?booking_id=${bookingId}` },
    ];
    const inStep = await portEntries(t, reads, key);
    const sentBooking = inStep[2]?.body as string;
    const email = JSON.parse(sentBooking).data[0].client.email as string;
    const wrong: CorpusEntry[] = [
      // The same fields, another e-mail: one field differs, and it is guest data (masked in the sample).
      {
        call: reads[2] as LegacyCall,
        status: 200,
        body: sentBooking.replace(`"${email}"`, '"someone.else@example.com"'),
      },
      // An answer the port would never give: another status, another content type.
      {
        call: { method: 'GET', path: 'availability/getAvailability?date_from=2030-06-15&date_to=2030-06-16' },
        status: 500,
        body: '<html><body>Fatal error</body></html>',
        contentType: 'text/html; charset=UTF-8',
      },
    ];
    const entries = [inStep[0], inStep[1], ...wrong] as CorpusEntry[];
    await setMode(t, keyId, 'shadow', await standIn(entries, key));

    for (const entry of entries) {
      const answer = await send(t, entry.call, key);
      expect(answer.status).toBe(entry.status);
      expect(answer.headers.get('content-type')).toBe(entry.contentType ?? 'application/json');
      expect(answer.text).toBe(entry.body);
    }

    const today = await scores(t, keyId, '2030-06-15', '2030-06-15');
    expect(today.days).toEqual([
      {
        date: '2030-06-15',
        compared: 4,
        different: 2,
        score: 0.5,
        unanswered: 0,
        overflowed: 0,
        failed: 0,
        forgiven: 0,
        noise_fields: [],
      },
    ]);
    const [emailSample, statusSample] = today.samples;
    expect(emailSample?.path).toBe('/api/pms/v1/booking/getBookings');
    expect(emailSample?.query).toBe(`?booking_id=${bookingId}`);
    expect(emailSample?.fields).toEqual([
      {
        path: '$.data[0].client.email',
        recorded: 's***********************',
        replayed: expect.stringMatching(/^.\*+$/),
        class: 'value',
      },
    ]);
    expect(JSON.stringify(emailSample)).not.toContain('someone.else@example.com');
    expect(JSON.parse(emailSample?.upstream.body as string).data[0].client.email).toBe('s***********************');
    expect(statusSample?.upstream).toEqual({ status: 500, body: '<html><body>Fatal error</body></html>' });
    expect(statusSample?.port.status).toBe(200);
  }, 30_000);

  it('rehearses every legacy write as a dry run: the port agrees and nothing is written', async () => {
    const { key, keyId } = await f.anotherKey();
    const bookingId = await f.book();
    // The PMS was sent the booking while its key was live (the port stored the revision then).
    const sent = JSON.parse(
      (await send(t, { method: 'GET', path: `booking/getBookings?booking_id=${bookingId}` }, key)).text,
    );
    const revision = sent.data[0];
    const room = f.roomIds[0] as number;
    const writes: LegacyCall[] = [
      {
        method: 'POST',
        path: 'availability/updateAvailability',
        body: { values: [{ room_id: room, date_from: '2030-06-20', date_to: '2030-06-25', qty: 1, opened: true }] },
      },
      {
        method: 'POST',
        path: 'booking/ackBooking',
        body: {
          booking_id: bookingId,
          revision_id: revision.revision_id,
          booking_items: [
            {
              booking_item_id: revision.booking_items[0].booking_item_id,
              ext_reservation_id: 'R-77',
              room_number: '12',
            },
          ],
        },
      },
      {
        method: 'POST',
        path: 'booking/postRoomAssignment',
        body: { booking_id: bookingId, booking_item_id: revision.booking_items[0].booking_item_id, room_number: '14' },
      },
      {
        method: 'POST',
        path: 'property/postExternalPropertyData',
        body: {
          property: { id: 'PMS-9', name: 'Shadowed', mapping_data: { rooms_types: [{ id: 'X1', name: 'Double' }] } },
        },
      },
    ];
    const success = '{"message":"Success"}';
    // The legacy service shows the availability the write left: what the port shows after the same write.
    const readBack = await readBackEntry(t, f.propertyId, writes[0] as LegacyCall, key);
    await setMode(
      t,
      keyId,
      'shadow',
      await standIn([...writes.map((call) => ({ call, status: 200, body: success })), readBack], key),
    );
    const before = await tableDigests(t.deps.db);

    for (const call of writes) expect((await send(t, call, key)).text).toBe(success);
    const today = await scores(t, keyId, '2030-06-15', '2030-06-15');

    // Each write ran for real inside the rehearsal (an ack of an unknown revision would answer 404, a second
    // one "already sent") and agreed with the legacy answer; then it was rolled back.
    expect(today.days[0]).toMatchObject({ compared: 4, different: 0 });
    expect(await tableDigests(t.deps.db)).toEqual(before);
    // A few minutes of shadow earn no zero streak: the flip back is deliberate.
    await forceLive(t, keyId);
    expect((await send(t, writes[1] as LegacyCall, key)).text).toBe(success);
  }, 30_000);

  it('compares and keeps the exact bytes each side sent: a difference of representation only is one', async () => {
    const { key, keyId } = await f.anotherKey();
    const call: LegacyCall = { method: 'GET', path: 'property/getPropertySettings?names=property' };
    const [inStep] = await portEntries(t, [call], key);
    const portBody = inStep?.body as string;
    // The same JSON written otherwise: the id as 7.0, the name's first letter as a \u escape.
    const upstreamBody = portBody
      .replace(/"id":(\d+)/, '"id":$1.0')
      .replace(/"name":"(.)/, (_, c: string) => `"name":"\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(JSON.parse(upstreamBody)).toEqual(JSON.parse(portBody));
    await setMode(t, keyId, 'shadow', await standIn([{ call, status: 200, body: upstreamBody }], key));

    expect((await send(t, call, key)).text).toBe(upstreamBody);
    const today = await scores(t, keyId, '2030-06-15', '2030-06-15');
    expect(today.days[0]).toMatchObject({ compared: 1, different: 1 });
    const [sample] = today.samples;
    // Both bodies as sent, byte for byte: a re-serialised sample would show two equal bodies.
    expect(sample?.upstream.body).toBe(upstreamBody);
    expect(sample?.port.body).toBe(portBody);
    expect(sample?.fields).toEqual([
      expect.objectContaining({ path: 'body', class: 'representation', detail: 'number format' }),
    ]);
  }, 30_000);

  it('keeps a sample whose legacy body holds a NUL and bytes that are not UTF-8, byte for byte, and shows them escaped', async () => {
    const { key, keyId } = await f.anotherKey();
    const [inStep] = await portEntries(t, [wrong], key);
    // A legacy answer gone wrong: the guest's name in Latin-1 (the byte FC for ü), a raw NUL and a stray FF.
    const bytes = (...parts: Array<string | number[]>) =>
      new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
    const upstream = bytes('{"data":{"client":{"last_name":"M', [0xfc], 'ller"},"note":"a', [0x00, 0xff], 'b"}}');
    await setMode(t, keyId, 'shadow', await standIn([{ call: wrong, status: 200, body: '', bytes: upstream }], key));

    // The PMS gets the legacy bytes as they came.
    expect(Buffer.from((await send(t, wrong, key)).bytes).equals(Buffer.from(upstream))).toBe(true);
    const today = await scores(t, keyId, '2030-06-15', '2030-06-15');
    expect(today.days[0]).toMatchObject({ compared: 1, different: 1 });
    expect(today.samples).toHaveLength(1);
    const [sample] = today.samples;
    // Kept exactly, the guest's name masked in place (as the partner API masks it) and every other byte as sent.
    const kept = bytes('{"data":{"client":{"last_name":"M."},"note":"a', [0x00, 0xff], 'b"}}');
    expect(Buffer.from(sample?.upstream.body_base64 ?? '', 'base64').equals(Buffer.from(kept))).toBe(true);
    expect(sample?.upstream.body).toBe('{"data":{"client":{"last_name":"M."},"note":"a\u0000\ufffdb"}}');
    // The port's answer is UTF-8: its text is exact, no base64 beside it.
    expect(sample?.port).toEqual({ status: 200, body: inStep?.body as string });
    expect(sample?.fields).toEqual([expect.objectContaining({ path: 'body', class: 'value', offset: 10 })]);

    const { run, html } = await reportFromService(t, keyId, '2030-06-15', '2030-06-15');
    expect(run.code).toBe(1);
    // No byte the page cannot show reaches it; the snippet of the differing bytes writes the NUL as \x00 too.
    expect(html).not.toContain('\u0000');
    expect(html).toContain('&quot;a\\x00');
    const recorded = html.slice(html.indexOf('<h4>Recorded</h4>'), html.indexOf('<h4>Replayed</h4>'));
    expect(recorded).toContain(
      '{&quot;data&quot;:{&quot;client&quot;:{&quot;last_name&quot;:&quot;M.&quot;},&quot;note&quot;:&quot;a<span class="esc">\\x00</span><span class="esc">\\xff</span>b&quot;}}',
    );
  }, 30_000);

  it('reads a sample kept as text before migration 1155 as it was kept', async () => {
    const { keyId } = await f.anotherKey();
    const fields = [{ path: '$.data.property.name', recorded: 'Old', replayed: 'New', class: 'value' }];
    await t.deps.db.sql`
      insert into legacy_shadow_samples (key_id, day, method, path, query, request_body, upstream_status, port_status,
        upstream_body, port_body, fields, created_at)
      values (${keyId}, '2030-06-15', 'GET', '/api/pms/v1/property/getPropertySettings', '?names=property', null, 200,
        200, '{"data":{"property":{"name":"Old"}}}', '{"data":{"property":{"name":"New"}}}', ${fields}::json, ${NOW})`;
    const [sample] = (await scores(t, keyId, '2030-06-15', '2030-06-15')).samples;
    expect(sample).toMatchObject({
      upstream: { status: 200, body: '{"data":{"property":{"name":"Old"}}}' },
      port: { status: 200, body: '{"data":{"property":{"name":"New"}}}' },
      fields,
    });
    expect(sample?.upstream.body_base64).toBeUndefined();
  }, 30_000);

  it('compares a compressed legacy answer decoded, as the PMS reads it, and keeps its sample decoded', async () => {
    // The legacy service's web server gzips what the PMS accepts (its Accept-Encoding is forwarded); the port never
    // compresses. The same answer compressed is the same answer; a different one is shown as the JSON it holds.
    const { key, keyId } = await f.anotherKey();
    const [rightEntry] = (await portEntries(t, [right], key)) as [CorpusEntry];
    const wrongBody = '{"data":{"property":{"id":1,"name":"Elsewhere"}}}';
    await setMode(
      t,
      keyId,
      'shadow',
      await standIn(
        [
          { ...rightEntry, bytes: Bun.gzipSync(Buffer.from(rightEntry.body)), contentEncoding: 'gzip' },
          { call: wrong, status: 200, body: '', bytes: Bun.gzipSync(Buffer.from(wrongBody)), contentEncoding: 'gzip' },
        ],
        key,
      ),
    );
    t.clock.set('2030-08-10T12:00:00Z');
    const answered = await send(t, right, key);
    // The PMS gets the legacy bytes as sent, still compressed.
    expect(answered.headers.get('content-encoding')).toBe('gzip');
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(answered.bytes)))).toBe(rightEntry.body);
    await send(t, wrong, key);
    t.clock.set('2030-06-15T10:00:00Z');
    await t.cutover.comparisons.idle();
    const day = await scores(t, keyId, '2030-08-10', '2030-08-10');
    expect(day.days[0]).toMatchObject({ compared: 2, different: 1 });
    expect(day.samples).toHaveLength(1);
    expect(day.samples[0]?.upstream.body).toBe(wrongBody);
    expect(day.samples[0]?.fields.map((field) => (field as { path: string }).path)).toContain('$.data.property.name');
  }, 30_000);

  it('compares what a shadowed updateAvailability would have written: getAvailability read back from both sides', async () => {
    const { key, keyId } = await f.anotherKey();
    const room = f.roomIds[0] as number;
    const write = (qty: number, from: string): LegacyCall => ({
      method: 'POST',
      path: 'availability/updateAvailability',
      body: { values: [{ room_id: room, date_from: from, date_to: from, qty }] },
    });
    // Legacy and port agree on the first write; on the second the legacy service shows 3 rooms where the port's
    // dry-run write leaves 2 (the answers are both "Success": only the read-back tells them apart).
    const agreeing = write(2, '2030-07-01');
    const disagreeing = write(2, '2030-07-02');
    const success = '{"message":"Success"}';
    const roomQty = new RegExp(`("room_id":${room},"date":"2030-07-02","qty":)2`);
    // Before any write the port has another figure there: a read-back of 2 can only come from the dry-run write.
    const [now] = await portEntries(
      t,
      [{ method: 'GET', path: 'availability/getAvailability?date_from=2030-07-02&date_to=2030-07-02' }],
      key,
    );
    expect(now?.body).not.toMatch(roomQty);
    await setMode(
      t,
      keyId,
      'shadow',
      await standIn(
        [
          { call: agreeing, status: 200, body: success },
          await readBackEntry(t, f.propertyId, agreeing, key),
          { call: disagreeing, status: 200, body: success },
          await readBackEntry(t, f.propertyId, disagreeing, key, (body) => {
            expect(body).toMatch(roomQty);
            return body.replace(roomQty, '$13');
          }),
        ],
        key,
      ),
    );
    const before = await tableDigests(t.deps.db);
    for (const call of [agreeing, disagreeing]) expect((await send(t, call, key)).text).toBe(success);
    const today = await scores(t, keyId, '2030-06-15', '2030-06-15');
    expect(today.days[0]).toMatchObject({ compared: 2, different: 1 });
    expect(today.samples.map((sample) => sample.fields)).toEqual([
      [
        {
          path: expect.stringMatching(/^after write: \$\.data\[\d+\]\.qty$/),
          recorded: 3,
          replayed: 2,
          class: 'value',
        },
      ],
    ]);
    // The port's write was real inside the rolled-back turn (it read back 2), and nothing stayed.
    expect(await tableDigests(t.deps.db)).toEqual(before);
  }, 30_000);

  it('answers a request asking for a dry run from the port, rolled back, whatever the mode: nothing written or forwarded', async () => {
    const { key, keyId } = await f.anotherKey();
    const bookingId = await f.book();
    const sent = JSON.parse(
      (await send(t, { method: 'GET', path: `booking/getBookings?booking_id=${bookingId}` }, key)).text,
    );
    const revision = sent.data[0];
    const ack: LegacyCall = {
      method: 'POST',
      path: 'booking/ackBooking',
      body: {
        booking_id: bookingId,
        revision_id: revision.revision_id,
        booking_items: [{ booking_item_id: revision.booking_items[0].booking_item_id, ext_reservation_id: 'R-1' }],
      },
    };
    const dryRun = async (call: LegacyCall) => {
      const body = bodyBytes(call);
      const res = await t.app.handle(
        new Request(`http://localhost${pathAndQuery(call, key)}`, {
          method: call.method,
          headers: { 'content-type': 'application/json', 'x-qc-dry-run': '1' },
          body,
        } as RequestInit),
      );
      return { status: res.status, dryRun: res.headers.get('x-qc-dry-run'), text: await res.text() };
    };
    const before = await tableDigests(t.deps.db);
    // Live: the ack runs for real and is rolled back, so a second one is accepted again.
    expect(await dryRun(ack)).toEqual({ status: 200, dryRun: '1', text: '{"message":"Success"}' });
    expect(await dryRun(ack)).toEqual({ status: 200, dryRun: '1', text: '{"message":"Success"}' });
    // Shadow: the legacy stand-in would answer 500; a dry run is never forwarded (that would write there).
    await setMode(t, keyId, 'shadow', await standIn([{ call: ack, status: 500, body: '{"message":"legacy"}' }], key));
    expect(await dryRun(ack)).toEqual({ status: 200, dryRun: '1', text: '{"message":"Success"}' });
    expect(await tableDigests(t.deps.db)).toEqual(before);
    expect((await scores(t, keyId, '2030-06-15', '2030-06-15')).days.map((day) => day.compared)).toEqual([0]);
    // Without the header the same ack is applied for real (the PMS's own requests are never dry runs).
    await forceLive(t, keyId);
    expect((await send(t, ack, key)).text).toBe('{"message":"Success"}');
    expect((await send(t, ack, key)).text).toBe('{"message":"The ack was already sent!"}');
  }, 30_000);

  it('scores each UTC day by the injectable clock; the zero streak counts only days with traffic', async () => {
    const { key, keyId } = await shadowKeyWithOneWrong('{"data":{}}');
    const day = async (date: string, calls: LegacyCall[]) => {
      t.clock.set(`${date}T12:00:00Z`);
      for (const call of calls) await send(t, call, key);
    };

    await day('2030-07-01', [right, wrong]);
    await day('2030-07-02', [right, right]);
    // 2030-07-03: the PMS was quiet.
    await day('2030-07-04', [right]);
    await day('2030-07-05', [wrong]);
    const week = await scores(t, keyId, '2030-07-01', '2030-07-05');

    expect(week.days.map(({ date, compared, different, score }) => ({ date, compared, different, score }))).toEqual([
      { date: '2030-07-01', compared: 2, different: 1, score: 0.5 },
      { date: '2030-07-02', compared: 2, different: 0, score: 0 },
      { date: '2030-07-03', compared: 0, different: 0, score: null },
      { date: '2030-07-04', compared: 1, different: 0, score: 0 },
      { date: '2030-07-05', compared: 1, different: 1, score: 1 },
    ]);
    // Today (07-05) is not over: its difference does not count yet. 07-04 and 07-02 do; 07-03 had no traffic.
    expect(week.zero_streak_days).toBe(2);
    t.clock.set('2030-07-06T00:00:01Z');
    expect((await scores(t, keyId, '2030-07-01', '2030-07-05')).zero_streak_days).toBe(0);
    t.clock.set('2030-06-15T10:00:00Z');
  }, 30_000);

  it("gives the harness's HTML report, with the score over time, from the daily scores", async () => {
    const { key, keyId } = await shadowKeyWithOneWrong('{"data":{"property":{"id":1,"name":"Elsewhere"}}}');
    for (const [date, calls] of [
      ['2030-08-01', [right, wrong]],
      ['2030-08-02', [right, right, right]],
    ] as const) {
      t.clock.set(`${date}T12:00:00Z`);
      for (const call of calls) await send(t, call, key);
    }
    t.clock.set('2030-06-15T10:00:00Z');
    const { run, html } = await reportFromService(t, keyId, '2030-08-01', '2030-08-02');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('5 compared, 1 different. Score 20.0 %');
    expect(html).toContain('Score over runs');
    // Which credential: the PMS, its property and its mode now, not only the key's number.
    expect(html).toContain(`<h1>Shadow-difference score, legacy key ${keyId} (second-pms)</h1>`);
    expect(html).toContain(`property ${f.propertyExt} · PMS second-pms · now shadow · 2030-08-01 to 2030-08-02`);
    expect(html.match(/<circle /g)?.length).toBe(2);
    expect(html).toContain('score 50.0 % · 1 different, 0 failed of 2');
    expect(html).toContain('/api/pms/v1/property/getPropertySettings');
    expect(html).toContain('Elsewhere');
    // The sample says when the PMS asked, not only its place in the report.
    expect(html).toContain('<time class="at" datetime="2030-08-01T12:00:00.000Z">2030-08-01 12:00:00 UTC</time>');
  }, 30_000);

  /** A shadowed exchange the legacy service did not answer: its comparison only counts it (no dry run). */
  const unanswered = (keyId: number, at: string): ShadowExchange => ({
    keyId,
    propertyId: f.propertyId,
    at: new Date(at),
    request: { method: 'GET', pathAndQuery: '/api/pms/v1/property/getRoomsDetails', headers: [], body: null },
    upstream: { failure: 'unreachable', reason: 'test' },
  });

  it('drops comparisons past the queue bound and counts them, without ever waiting', async () => {
    const comparisons = new ShadowComparisons(t.deps, { capacity: 1, samplesPerDay: 0 });
    const { keyId } = await f.anotherKey();
    const exchange = unanswered(keyId, '2030-06-10T08:00:00Z');

    expect([comparisons.offer(exchange), comparisons.offer(exchange), comparisons.offer(exchange)]).toEqual([
      true,
      false,
      false,
    ]);
    await comparisons.stop();

    const [day] = await scores(t, keyId, '2030-06-10', '2030-06-10').then((s) => s.days);
    expect(day).toMatchObject({ compared: 0, unanswered: 1, overflowed: 2 });

    // The report says what was not compared, and that a range without comparisons has no score (not a green 0).
    const { run, html } = await reportFromService(t, keyId, '2030-06-10', '2030-06-10');
    expect(run.stdout).toContain('0 compared, 0 different. No score: nothing was compared');
    expect(html).toContain('1 unanswered by the legacy service · 2 not compared (queue full)');
    expect(html).toContain('<div class="score empty">');
  }, 30_000);

  /** The process's `qc_legacy_shadow_uncompared_total{reason}` so far. */
  async function uncompared(reason: string): Promise<number> {
    const metric = await legacyShadowUncompared.get();
    return metric.values.find((v) => v.labels.reason === reason)?.value ?? 0;
  }

  it('counts a comparison that failed as failed, in the day, the metric and the report, not as different', async () => {
    // The port's side cannot run: the property's actor lock is not taken (as on a database blip).
    const actors = {
      dryRun: () => Promise.reject(new Error('lock not taken')),
    } as unknown as typeof t.deps.actors;
    const comparisons = new ShadowComparisons({ ...t.deps, actors }, { capacity: 10, samplesPerDay: 1 });
    const { keyId } = await f.anotherKey();
    const before = await uncompared('failed');
    const exchange: ShadowExchange = {
      ...unanswered(keyId, '2030-06-13T08:00:00Z'),
      upstream: {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', 'application/json']],
        body: new TextEncoder().encode('{"data":[]}'),
      },
    };
    expect([comparisons.offer(exchange), comparisons.offer(exchange)]).toEqual([true, true]);
    await comparisons.stop();

    const range = await scores(t, keyId, '2030-06-13', '2030-06-13');
    expect(range.days[0]).toMatchObject({ compared: 0, different: 0, failed: 2, score: null });
    expect(range.samples).toEqual([]);
    expect((await uncompared('failed')) - before).toBe(2);
    const { run, html } = await reportFromService(t, keyId, '2030-06-13', '2030-06-13');
    expect(run.code).toBe(0);
    expect(html).toContain('2030-06-13 to 2030-06-13 · zero streak 0 days · 2 not compared (comparison failed)');
  }, 30_000);

  it('keeps a sample with the time the PMS asked, not the time the queue compared it', async () => {
    // Asked a second before midnight, compared (by the service's clock) the next morning.
    const comparisons = new ShadowComparisons(t.deps, { capacity: 10, samplesPerDay: 1 });
    const { keyId } = await f.anotherKey();
    comparisons.offer({
      ...unanswered(keyId, '2030-06-14T23:59:59Z'),
      upstream: {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', 'application/json']],
        body: new TextEncoder().encode('{"data":"not what the port answers"}'),
      },
    });
    await comparisons.stop();
    const [sample] = (await scores(t, keyId, '2030-06-14', '2030-06-15')).samples;
    expect(sample).toMatchObject({ date: '2030-06-14', at: '2030-06-14T23:59:59.000Z' });
  }, 30_000);

  /** Shadowed requests every 2 ms for `ms`: how many were offered and queued, and the queue's length after each. */
  async function traffic(comparisons: ShadowComparisons, exchange: ShadowExchange, ms: number) {
    const until = performance.now() + ms;
    const seen = { offered: 0, queued: 0, pending: [] as number[] };
    while (performance.now() < until) {
      seen.offered++;
      if (comparisons.offer(exchange)) seen.queued++;
      seen.pending.push(comparisons.pending);
      await Bun.sleep(2);
    }
    return seen;
  }

  it('compares nothing while shadowed requests keep coming, everything in the pause after, and drops new ones once the oldest has waited maxLagMs', async () => {
    const comparisons = new ShadowComparisons(t.deps, {
      capacity: 1000,
      samplesPerDay: 0,
      // A pause far longer than any stall of a loaded machine's event loop: no comparison can start mid-traffic.
      pauseMs: 1000,
      yieldMs: 5000,
      maxLagMs: 150,
    });
    const { keyId } = await f.anotherKey();

    const seen = await traffic(comparisons, unanswered(keyId, '2030-06-11T08:00:00Z'), 300);
    // The queue only grew: no comparison took the thread while the PMS was being answered.
    expect(seen.pending.every((n, i) => i === 0 || n >= (seen.pending[i - 1] as number))).toBe(true);
    expect(comparisons.pending).toBe(seen.queued);
    // After 150 ms the oldest was too old to compare against the port's answer of now: the rest were dropped.
    expect(seen.queued).toBeGreaterThan(0);
    expect(seen.queued).toBeLessThan(seen.offered);

    await comparisons.idle();
    const [day] = await scores(t, keyId, '2030-06-11', '2030-06-11').then((s) => s.days);
    expect(day).toMatchObject({ compared: 0, unanswered: seen.queued, overflowed: seen.offered - seen.queued });
  });

  it('still compares one exchange every yieldMs while shadowed requests never pause', async () => {
    const comparisons = new ShadowComparisons(t.deps, { capacity: 1000, samplesPerDay: 0, pauseMs: 100, yieldMs: 50 });
    const { keyId } = await f.anotherKey();

    const seen = await traffic(comparisons, unanswered(keyId, '2030-06-12T08:00:00Z'), 400);
    const compared = seen.queued - comparisons.pending;
    // About one every 50 ms: some, never back to back (which would have left the queue empty).
    expect(compared).toBeGreaterThanOrEqual(1);
    expect(compared).toBeLessThanOrEqual(10);
    expect(seen.queued).toBe(seen.offered);

    await comparisons.idle();
    const [day] = await scores(t, keyId, '2030-06-12', '2030-06-12').then((s) => s.days);
    expect(day).toMatchObject({ compared: 0, unanswered: seen.offered, overflowed: 0 });
  });
});
