import { describe, expect, it } from 'bun:test';
import { type LegacyFixture, legacyFixture, legacyTestAppPerFile } from '../legacy-test-fixture.ts';

/**
 * The demo seeds 5 free rooms and a per_room price of 120 for 60 days from today on both rooms of the live
 * property; its two bookings sit on 2030-06-22 and 2030-06-29, after the stays quoted here.
 */

const t = legacyTestAppPerFile();

interface OfferView {
  room_id: number;
  rate_id: number;
  available_qty: number;
  price: number;
}

function offersCall(
  f: LegacyFixture,
  guests: Record<string, number>,
  stay = { checkin_date: '2030-06-20', checkout_date: '2030-06-22' },
) {
  const bmCode = (f.demo.legacy as { bm_code: string }).bm_code;
  return f.call('property/getBookingOffers', { query: { bm_code: bmCode, ...stay, ...guests } });
}
const pairs = (res: { body: { data: { offers: OfferView[] } } }) =>
  res.body.data.offers.map((o) => [o.room_id, o.rate_id, o.price]);

describe('getBookingOffers', () => {
  it('quotes every sellable room and rate pair from the calendar, child plans at their percentage', async () => {
    const f = await legacyFixture(t);
    const [dbl, apt] = f.roomIds as [number, number];
    const res = await offersCall(f, { 'guests[adults]': 2, 'guests[children_by_ages][0][age]': 5 });
    const bmCode = (f.demo.legacy as { bm_code: string }).bm_code;
    expect(
      res.text.startsWith(
        `{"data":{"bm_code":"${bmCode}","checkin_date":"2030-06-20","checkout_date":"2030-06-22","nights":2,"currency":"EUR",` +
          `"guests":{"adults":2,"children_by_ages":[{"age":5}]},"offers":[{"room_id":${dbl},"room_name":"Double Room","rate_id":${f.barPlanId},` +
          `"rate_name":"Flexible Room Rate","meal_plan":"breakfast","available_qty":5,"price":240.0,"currency":"EUR",` +
          `"nightly_prices":[{"date":"2030-06-20","price":120.0},{"date":"2030-06-21","price":120.0}]},`,
      ),
    ).toBe(true);
    expect(pairs(res)).toEqual([
      [dbl, f.barPlanId, 240],
      [dbl, f.childPlanId, 216],
      [apt, f.barPlanId, 240],
      [apt, f.childPlanId, 216],
    ]);
  });

  it('takes the same fields from a JSON body', async () => {
    const f = await legacyFixture(t);
    const body = {
      bm_code: (f.demo.legacy as { bm_code: string }).bm_code,
      checkin_date: '2030-06-20',
      checkout_date: '2030-06-21',
      guests: { adults: 1 },
    };
    // POST: over HTTP a GET's body never reaches the facade (php-input.served.test.ts); in process it would.
    const res = await f.call('property/getBookingOffers', { body, method: 'POST' });
    expect(res.body.data.offers).toHaveLength(4);
  });

  it('drops rooms too small for the guests', async () => {
    const f = await legacyFixture(t);
    const res = await offersCall(f, { 'guests[adults]': 4 });
    expect(res.body.data.offers.map((o: OfferView) => o.room_id)).toEqual([f.roomIds[1], f.roomIds[1]]);
  });

  it('drops pairs closed by availability: a closed night, no free room; and reports the smallest free count', async () => {
    const f = await legacyFixture(t);
    const [dbl, apt] = f.roomIds as [number, number];
    await f.call('availability/updateAvailability', {
      body: {
        values: [
          { room_id: dbl, date: '2030-06-21', closed: true },
          { room_id: apt, date: '2030-06-21', qty: 2 },
        ],
      },
    });
    let res = await offersCall(f, { 'guests[adults]': 2 });
    expect(res.body.data.offers.map((o: OfferView) => [o.room_id, o.available_qty])).toEqual([
      [apt, 2],
      [apt, 2],
    ]);
    await f.call('availability/updateAvailability', {
      body: { values: [{ room_id: apt, date: '2030-06-20', qty: 0 }] },
    });
    res = await offersCall(f, { 'guests[adults]': 2 });
    expect(res.text.endsWith('"offers":[]}}')).toBe(true);
  });

  it("applies the pair's restrictions: stop sell, closed to arrival and departure, length of stay", async () => {
    const f = await legacyFixture(t);
    const [dbl] = f.roomIds as [number];
    const restrict = (date: string, column: string, value: number | boolean) =>
      t.deps.db.query(
        `insert into restrictions (property_id, rate_plan_id, room_type_id, date, ${column})
         select property_id, $1, id, $3, $4 from room_types where id = $2
         on conflict (property_id, rate_plan_id, room_type_id, date) do update set ${column} = excluded.${column}`,
        [f.barPlanId, dbl, date, value],
      );
    const barOnDouble = async (stay?: { checkin_date: string; checkout_date: string }) =>
      pairs(await offersCall(f, { 'guests[adults]': 2 }, stay)).some(
        ([room, rate]) => room === dbl && rate === f.barPlanId,
      );
    expect(await barOnDouble()).toBe(true);
    await restrict('2030-06-21', 'stop_sell', true);
    expect(await barOnDouble()).toBe(false);
    expect(
      pairs(await offersCall(f, { 'guests[adults]': 2 })).some(
        ([room, rate]) => room === dbl && rate === f.childPlanId,
      ),
    ).toBe(true);
    const later = { checkin_date: '2030-06-25', checkout_date: '2030-06-27' };
    await restrict('2030-06-25', 'closed_to_arrival', true);
    expect(await barOnDouble(later)).toBe(false);
    const another = { checkin_date: '2030-07-01', checkout_date: '2030-07-03' };
    await restrict('2030-07-03', 'closed_to_departure', true);
    expect(await barOnDouble(another)).toBe(false);
    const third = { checkin_date: '2030-07-05', checkout_date: '2030-07-07' };
    await restrict('2030-07-05', 'min_los', 3);
    expect(await barOnDouble(third)).toBe(false);
    expect(await barOnDouble({ checkin_date: '2030-07-05', checkout_date: '2030-07-08' })).toBe(true);
  });

  it("prices per_person plans by the adults' code plus each child's bracket code", async () => {
    const f = await legacyFixture(t);
    const [dbl] = f.roomIds as [number];
    const ppId = f.perPersonPlanId;
    await t.deps.db.sql`insert into rates (property_id, rate_plan_id, room_type_id, date, prices)
      select (select property_id from room_types where id = ${dbl}), ${ppId}, ${dbl}, d::date, ${{ A1: 80, A2: 100, CEB: 20.5 }}::jsonb
      from generate_series('2030-06-20'::date, '2030-06-21'::date, interval '1 day') d`;
    const res = await offersCall(f, { 'guests[adults]': 2, 'guests[children_by_ages][0][age]': 7 });
    expect(pairs(res)).toContainEqual([dbl, ppId, 241]);
  });

  it('prices through the one engine: 1.005 is 1.01, a negative derived price is 0, derived codes chain', async () => {
    const f = await legacyFixture(t);
    const [dbl] = f.roomIds as [number];
    const ppId = f.perPersonPlanId;
    const vocabulary = [
      { code: 'A1', kind: 'manual' },
      { code: 'AEB', kind: 'derived', derived_from: 'A1', modifier: ['increase_by_percent', 50] },
      { code: 'A2', kind: 'derived', derived_from: 'AEB', modifier: ['decrease_by_amount', 0.5] },
      { code: 'CEB', kind: 'derived', derived_from: 'A1', modifier: ['decrease_by_amount', 150] },
    ];
    await t.deps.db.sql`update rate_plan_rooms set occupancies = ${vocabulary}::jsonb
      where rate_plan_id = ${ppId} and room_type_id = ${dbl}`;
    await t.deps.db.sql`insert into rates (property_id, rate_plan_id, room_type_id, date, prices)
      select property_id, ${ppId}, id, '2030-06-20', ${{ A1: 1.005 }}::jsonb from room_types where id = ${dbl}`;
    const stay = { checkin_date: '2030-06-20', checkout_date: '2030-06-21' };
    // A1 1.005 -> 1.01; AEB 1.01 * 1.5 = 1.515 -> 1.52; A2 = 1.52 - 0.5 = 1.02; CEB 1.01 - 150 -> 0.
    expect(pairs(await offersCall(f, { 'guests[adults]': 1 }, stay))).toContainEqual([dbl, ppId, 1.01]);
    const family = await offersCall(f, { 'guests[adults]': 2, 'guests[children_by_ages][0][age]': 7 }, stay);
    expect(pairs(family)).toContainEqual([dbl, ppId, 1.02]);
  });

  it('answers 404 for an inactive module and for a disabled property', async () => {
    const f = await legacyFixture(t);
    const bmCode = (f.demo.legacy as { bm_code: string }).bm_code;
    await t.ops('PUT', `/ops/properties/${f.propertyId}/status`, { status: 'disabled' });
    expect((await offersCall(f, { 'guests[adults]': 2 })).text).toBe('{"message":"Property owner not found."}');
    await t.deps.db.sql`update booking_buttons set is_active = false where url_key = ${bmCode}`;
    const res = await offersCall(f, { 'guests[adults]': 2 });
    expect([res.status, res.text]).toEqual([404, `{"message":"Booking module '${bmCode}' not found or inactive."}`]);
  });
});
