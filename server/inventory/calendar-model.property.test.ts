import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { addRatePlan, addRoomType, inventoryTest, type Ref } from './test-fixtures.ts';

/**
 * The calendar against a model: random sequences of overlapping range pushes (availability, prices,
 * restrictions; some while the property is shadow) must leave exactly what a plain per-day
 * last-write-wins map holds, and each push's counters must be the model's: `written` the day-rows whose
 * value changed, `unchanged` the others inside the window, `skipped_out_of_window` those outside, so
 * together they account for every distinct expanded day-row. Shadow pushes change nothing, count 0, and
 * answer the figures they would have had in `would`.
 */

// Lisbon, today 2026-06-15: the window starts 2026-06-14, so the model's first four days are outside it.
const { t, f } = inventoryTest();

const FIRST_DAY = 10;
const LAST_DAY = 25;
const WINDOW_FROM = 14;
const date = (d: number) => `2026-06-${String(d).padStart(2, '0')}`;

type Fields = Record<string, number | boolean>;
type Table = 'availability' | 'rates' | 'restrictions';
interface Row {
  room: 0 | 1;
  from: number;
  to: number;
  value: number | Fields;
}
interface Push {
  table: Table;
  shadow: boolean;
  rows: Row[];
}

const day = fc.integer({ min: FIRST_DAY, max: LAST_DAY });
const range = fc.tuple(day, day).map(([a, b]) => ({ from: Math.min(a, b), to: Math.max(a, b) }));
const room = fc.constantFrom<0 | 1>(0, 1);
const rowOf = (value: fc.Arbitrary<number | Fields>) =>
  fc.record({ room, range, value }).map(({ room, range, value }) => ({ room, ...range, value }));
const prices = fc
  .record({ A1: fc.integer({ min: 0, max: 2 }), A2: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: [] })
  .filter((p) => Object.keys(p).length > 0);
const restrictions = fc
  .record(
    { min_los: fc.integer({ min: 1, max: 2 }), stop_sell: fc.boolean(), closed_to_arrival: fc.boolean() },
    { requiredKeys: [] },
  )
  .filter((r) => Object.keys(r).length > 0);
const pushArb: fc.Arbitrary<Push> = fc
  .record({
    table: fc.constantFrom<Table>('availability', 'rates', 'restrictions'),
    shadow: fc.boolean().map((b) => b && Math.random() < 0.5),
    rows: fc.constant([] as Row[]),
  })
  .chain((p) =>
    fc
      .array(
        rowOf(
          p.table === 'availability' ? fc.integer({ min: 0, max: 3 }) : p.table === 'rates' ? prices : restrictions,
        ),
        {
          minLength: 1,
          maxLength: 4,
        },
      )
      .map((rows) => ({ ...p, rows })),
  );

interface Figures {
  written: number;
  unchanged: number;
  skipped_out_of_window: number;
}

/** The per-day last-write-wins model: table|room|date -> value. Availability holds free rooms. */
class Model {
  readonly cells = new Map<string, number | Fields>();

  apply(push: Push): Figures & { dry: boolean; would?: Figures } {
    const batch = new Map<string, number | Fields>();
    for (const row of push.rows) {
      for (let d = row.from; d <= row.to; d++) {
        const key = `${push.table}|${row.room}|${date(d)}`;
        const earlier = batch.get(key);
        batch.set(
          key,
          typeof row.value === 'number' ? row.value : { ...(earlier as Fields | undefined), ...row.value },
        );
      }
    }
    let written = 0;
    let unchanged = 0;
    let skipped = 0;
    for (const [key, value] of batch) {
      const d = Number(key.slice(-2));
      if (d < WINDOW_FROM) {
        skipped++;
        continue;
      }
      const stored = this.cells.get(key);
      const next = typeof value === 'number' ? value : { ...(stored as Fields | undefined), ...value };
      if (JSON.stringify(sorted(next)) === JSON.stringify(sorted(stored))) {
        unchanged++;
      } else {
        written++;
        if (!push.shadow) this.cells.set(key, next);
      }
    }
    expect(written + unchanged + skipped).toBe(batch.size);
    const figures = { written, unchanged, skipped_out_of_window: skipped };
    if (push.shadow) return { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: true, would: figures };
    return { ...figures, dry: false };
  }
}

function sorted(value: number | Fields | undefined): unknown {
  if (value === undefined || typeof value === 'number') return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

async function storedCells(rooms: Ref[], plan: Ref): Promise<Map<string, number | Fields>> {
  const ids = rooms.map((r) => r.id);
  const index = (roomTypeId: number) => ids.indexOf(roomTypeId);
  const cells = new Map<string, number | Fields>();
  const availability = await t.deps.db.sql<{ room_type_id: number; date: string; free: number }>`
    select room_type_id, date, offered - booked as free from availability where room_type_id = any(${ids}::bigint[])`;
  for (const r of availability) cells.set(`availability|${index(r.room_type_id)}|${r.date}`, r.free);
  const rates = await t.deps.db.sql<{ room_type_id: number; date: string; prices: Fields }>`
    select room_type_id, date, prices from rates where rate_plan_id = ${plan.id}`;
  for (const r of rates) cells.set(`rates|${index(r.room_type_id)}|${r.date}`, r.prices);
  const restrictions = await t.deps.db.sql<{ room_type_id: number; date: string; fields: Fields }>`
    select room_type_id, date, jsonb_strip_nulls(jsonb_build_object('min_los', min_los, 'stop_sell', stop_sell,
      'closed_to_arrival', closed_to_arrival)) as fields
    from restrictions where rate_plan_id = ${plan.id}`;
  for (const r of restrictions) cells.set(`restrictions|${index(r.room_type_id)}|${r.date}`, r.fields);
  return cells;
}

function body(push: Push, rooms: Ref[], plan: Ref) {
  return {
    values: push.rows.map((row) => {
      const base = { room_type_id: rooms[row.room]?.external_id, date_from: date(row.from), date_to: date(row.to) };
      if (push.table === 'availability') return { ...base, availability: row.value };
      if (push.table === 'rates') return { ...base, rate_plan_id: plan.external_id, prices: row.value };
      return { ...base, rate_plan_id: plan.external_id, ...(row.value as Fields) };
    }),
  };
}

const setMode = (mode: 'live' | 'shadow') =>
  t.deps.db.sql`update properties set mode = ${mode} where id = ${f.live.id}`;

describe('calendar model (fast-check)', () => {
  it('equals per-day last-write-wins, with counters that account for every expanded day-row', async () => {
    const booked = fc.array(
      fc.record({ day: fc.integer({ min: WINDOW_FROM, max: LAST_DAY }), rooms: fc.integer({ min: 1, max: 3 }) }),
      {
        maxLength: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(booked, fc.array(pushArb, { minLength: 1, maxLength: 6 }), async (bookings, pushes) => {
        const rooms = [await addRoomType(t.deps.db, f.live.id), await addRoomType(t.deps.db, f.live.id)];
        const occupancies = [
          { code: 'A1', kind: 'manual' as const },
          { code: 'A2', kind: 'manual' as const },
        ];
        const plan = await addRatePlan(t.deps.db, f.live.id, {
          sellType: 'per_person',
          pairs: rooms.map((r) => ({ roomTypeId: r.id, occupancies })),
        });
        const model = new Model();
        // Rooms the platform sold itself: booked with nothing free, which a push of 0 free leaves unchanged.
        for (const b of bookings) {
          await t.deps.db.sql`insert into availability (property_id, room_type_id, date, offered, booked)
            select property_id, id, ${date(b.day)}, ${b.rooms}, ${b.rooms} from room_types where id = ${rooms[0]?.id}
            on conflict do nothing`;
          model.cells.set(`availability|0|${date(b.day)}`, 0);
        }
        for (const push of pushes) {
          if (push.shadow) await setMode('shadow');
          try {
            const res = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/${push.table}`, {
              token: f.token,
              body: body(push, rooms, plan),
            });
            expect(res.status).toBe(202);
            expect(res.body.data).toEqual({ ...model.apply(push), warnings: [] });
          } finally {
            if (push.shadow) await setMode('live');
          }
          expect(await storedCells(rooms, plan)).toEqual(model.cells);
        }
      }),
      { numRuns: 25 },
    );
  });
});
