import { beforeAll, describe, expect, it } from 'bun:test';
import { createBookingRoute } from '../../bookings/create-booking.ts';
import { replaceCatalogue } from '../../catalogue/replace-catalogue.ts';
import { deleteSubscriptionRoute } from '../../subscriptions/delete-subscription.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { ApiError } from '../http/api-error.ts';
import { jsonResponse, ok } from '../http/envelope.ts';
import { createQcApp } from '../http/qc-app.ts';

/**
 * Which responses are kept for replay, whatever a handler returns. The real pipeline on a bare modern app
 * whose handlers the test controls (they stand in for features), so each rule is pinned on its own:
 * a `Response` returned directly, a thrown error, booking_create_failed (never kept), a 5xx (never kept),
 * and PUT and DELETE as well as POST.
 */
describe('what Idempotency-Key keeps', () => {
  let calls = 0;
  let answer: () => unknown = () => ok({});
  let app: ReturnType<typeof createQcApp>;

  const t = testAppPerFile();
  const demo = perFile(() => t.demo());
  beforeAll(async () => {
    app = createQcApp(t.deps);
    const handler = () => {
      calls++;
      return answer();
    };
    // The stand-ins take any body and any path: the pipeline checks a body against its route's schema, and looks up
    // the record a route's path names, and these are not theirs.
    const standIn = <R extends object>(route: R) => ({ ...route, body: undefined, pathRecord: undefined });
    app.put(replaceCatalogue.path, handler, { qc: standIn(replaceCatalogue) });
    app.post(createBookingRoute.path, handler, { qc: standIn(createBookingRoute) });
    app.delete(deleteSubscriptionRoute.path, handler, { qc: standIn(deleteSubscriptionRoute) });
  });

  async function send(method: string, path: string, key: string, body = '{"a":1}') {
    const res = await app.handle(
      new Request(`http://localhost/v1/qc${path}`, {
        method,
        headers: {
          authorization: `Bearer ${demo.personal_token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: method === 'DELETE' ? undefined : body,
      }),
    );
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  it('replays a Response a handler returned directly, its own headers included', async () => {
    calls = 0;
    answer = () => jsonResponse(202, { handled: calls }, { 'x-custom': 'kept', location: '/somewhere' });
    const first = await send('POST', '/bookings', 'direct');
    const again = await send('POST', '/bookings', 'direct');
    expect(calls).toBe(1);
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('x-custom')).toBe('kept');
    expect(again.headers.get('location')).toBe('/somewhere');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('idempotency-replayed')).toBe('true');
  });

  it('replays a thrown 4xx error without running the handler again', async () => {
    calls = 0;
    answer = () => {
      throw new ApiError('errors.qc.unknown_room_type');
    };
    const first = await send('POST', '/bookings', 'thrown');
    const again = await send('POST', '/bookings', 'thrown');
    expect(calls).toBe(1);
    expect([first.status, again.status]).toEqual([422, 422]);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
  });

  it('never keeps errors.qc.booking_create_failed: the retry runs again', async () => {
    calls = 0;
    answer = () => {
      throw new ApiError('errors.qc.booking_create_failed');
    };
    const first = await send('POST', '/bookings', 'refused');
    expect(JSON.parse(first.text).message).toBe('errors.qc.booking_create_failed');
    answer = () => ok({ booking: 'made' });
    const retry = await send('POST', '/bookings', 'refused');
    expect(calls).toBe(2);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    // What the retry answered is kept from then on.
    expect((await send('POST', '/bookings', 'refused')).headers.get('idempotency-replayed')).toBe('true');
    expect(calls).toBe(2);
  });

  it('never keeps a 5xx: the retry with the same key runs again', async () => {
    calls = 0;
    answer = () => {
      throw new Error('database went away');
    };
    expect((await send('POST', '/bookings', 'crashed')).status).toBe(500);
    answer = () => ok({ booking: 'made' });
    const retry = await send('POST', '/bookings', 'crashed');
    expect(retry.status).toBe(200);
    expect(calls).toBe(2);
  });

  it('honours the key on PUT and DELETE', async () => {
    calls = 0;
    answer = () => ok({ replaced: calls });
    const property = demo.properties[0]?.external_property_id;
    const put = await send('PUT', `/properties/${property}/catalogue`, 'put-key');
    const putAgain = await send('PUT', `/properties/${property}/catalogue`, 'put-key');
    expect(putAgain.text).toBe(put.text);
    const del = await send('DELETE', '/subscriptions/00000000-0000-4000-8000-000000000000', 'delete-key');
    const delAgain = await send('DELETE', '/subscriptions/00000000-0000-4000-8000-000000000000', 'delete-key');
    expect(delAgain.text).toBe(del.text);
    expect(delAgain.headers.get('idempotency-replayed')).toBe('true');
    expect(calls).toBe(2);
  });
});
