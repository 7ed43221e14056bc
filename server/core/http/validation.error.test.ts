import { describe, expect, it } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { Elysia, t } from 'elysia';
import { fieldErrorsFrom } from './validation.ts';

/** Runs a body through Elysia's real validation against `schema` and maps its errors the way the app does. */
async function mappedErrors(schema: TSchema, body: unknown) {
  let mapped: Record<string, string[]> = {};
  const app = new Elysia()
    .onError(({ error }) => {
      mapped = fieldErrorsFrom((error as unknown as { all: never[] }).all, 'thing');
      return 'x';
    })
    .post('/', () => 'ok', { body: schema });
  await app.handle(
    new Request('http://localhost/', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }),
  );
  return mapped;
}

const Thing = t.Object({
  name: t.String({ minLength: 2 }),
  n: t.Integer({ minimum: 1, maximum: 9 }),
  kind: t.Optional(t.Union([t.Literal('a'), t.Literal('b')])),
  tags: t.Optional(t.Array(t.String(), { maxItems: 1 })),
});
const errorsFor = (body: unknown) => mappedErrors(Thing, body);

/** Fields whose schema is a union: nullable, nullable enum, a choice of objects. */
const UnionThing = t.Object({
  label: t.Optional(t.Nullable(t.String({ maxLength: 255 }))),
  size: t.Optional(t.Nullable(t.Union([t.Literal('s'), t.Literal('m')]))),
  shape: t.Optional(t.Union([t.Object({ percent: t.Number() }), t.Object({ adjust: t.Array(t.Number()) })])),
});
const unionErrorsFor = (body: unknown) => mappedErrors(UnionThing, body);

describe('validation error mapping', () => {
  it('names a missing field as required', async () => {
    expect(await errorsFor({ n: 1 })).toEqual({ name: ['customer.thing.messages.required'] });
  });

  it('names numeric bounds and types through the coerced union', async () => {
    expect(await errorsFor({ name: 'ab', n: 0 })).toEqual({ n: ['customer.thing.messages.min'] });
    expect(await errorsFor({ name: 'ab', n: 10 })).toEqual({ n: ['customer.thing.messages.max'] });
    expect(await errorsFor({ name: 'ab', n: 1.5 })).toEqual({ n: ['customer.thing.messages.integer'] });
    expect(await errorsFor({ name: 'ab', n: 'x' })).toEqual({ n: ['customer.thing.messages.integer'] });
  });

  it('keeps client field names that collide with Object.prototype as plain keys', async () => {
    const errors = fieldErrorsFrom(
      [
        { type: 0, path: '/toString', value: [] },
        { type: 0, path: '/__proto__/x', value: 1 },
      ],
      'thing',
    );
    expect(Object.keys(errors)).toEqual(['toString', '__proto__.x']);
    // The entry is the record's own, not Object.prototype's toString.
    expect(Object.entries(errors)[0]).toEqual(['toString', ['customer.thing.messages.invalid']]);
  });

  it('names enum, length and nested array failures by dotted path', async () => {
    expect(await errorsFor({ name: 'ab', n: 1, kind: 'z' })).toEqual({ kind: ['customer.thing.messages.in'] });
    expect(await errorsFor({ name: 'a', n: 1 })).toEqual({ name: ['customer.thing.messages.min_length'] });
    expect(await errorsFor({ name: 'ab', n: 1, tags: ['x', 'y'] })).toEqual({
      tags: ['customer.thing.messages.max_items'],
    });
    expect(await errorsFor({ name: 'ab', n: 1, tags: [3] })).toEqual({ 'tags.0': ['customer.thing.messages.string'] });
  });

  it('names the rule of the union member the value has the type of, not `invalid` (item 6 of the body audit)', async () => {
    const errorsOf = (body: unknown) => unionErrorsFor(body);
    expect(await errorsOf({ label: 'x'.repeat(300) })).toEqual({ label: ['customer.thing.messages.max_length'] });
    expect(await errorsOf({ label: 123 })).toEqual({ label: ['customer.thing.messages.string'] });
    expect(await errorsOf({ size: 'huge' })).toEqual({ size: ['customer.thing.messages.in'] });
    expect(await errorsOf({ shape: { percent: 'x' } })).toEqual({
      'shape.percent': ['customer.thing.messages.number'],
    });
    expect(await errorsOf({ shape: 'x' })).toEqual({ shape: ['customer.thing.messages.object'] });
    expect(await errorsOf({ label: null, size: null })).toEqual({});
  });

  it('never echoes a field name that is really a body: a form whose one field is the whole JSON text (issue 16)', () => {
    const body = JSON.stringify({ client_secret: 'qcs_do-not-echo', name: 'x'.repeat(120) });
    const errors = fieldErrorsFrom(
      [
        { type: 0, path: `/${body}`, value: '' },
        { type: 0, path: '/values/0/date', value: 1 },
      ],
      'thing',
    );
    expect(Object.keys(errors)).toEqual(['body', 'values.0.date']);
    expect(JSON.stringify(errors)).not.toContain('qcs_do-not-echo');
  });
});
