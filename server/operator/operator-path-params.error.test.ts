import { describe, expect, it } from 'bun:test';
import type { TObject, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { OPERATOR_PREFIX, type OperatorRouteDefinition } from '../core/routes/operator-route.ts';
import { operatorRouteTable } from '../operator-route-table.ts';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';

/**
 * Every operator and dashboard path parameter's 422 names that parameter: a row id out of range answered
 * `errors: {property: [...max]}` (t.Numeric's decoder names no field), and `1.5` reached SQL (422 `request`,
 * or a 404). Walks the route table, so a route added with its own id schema is walked too. Each request carries
 * a body its schema accepts, so the answer is about the path alone.
 */
const t = testAppPerFile();
const table = operatorRouteTable({ sunset: undefined as never });
const dashboard = perFile(async () => ({
  token: await t.dashboardSession((await customerFixture(t.deps)).customerId),
}));

/** Path values an integer id parameter refuses, and the rule its 422 names. */
const BAD_INTEGERS: [string, string][] = [
  ['0', 'min'],
  ['-1', 'min'],
  ['1.5', 'integer'],
  ['abc', 'integer'],
  ['99999999999999999999', 'max'],
  [String(Number.MAX_SAFE_INTEGER + 2), 'max'],
];

const withPathParams = table.filter((spec) => spec.path.includes('/:'));
const paramNames = (spec: OperatorRouteDefinition) => [...spec.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
const isText = (schema: TSchema) => schema.type === 'string';

async function call(spec: OperatorRouteDefinition, name: string, value: string) {
  const token = spec.surface === 'ops' ? OPERATOR_TOKEN : (await dashboard).token;
  const path = spec.path.replace(/:(\w+)/g, (_, param: string) => (param === name ? value : '1'));
  const body = spec.body && spec.method !== 'GET' ? Value.Create(spec.body) : undefined;
  const res = await t.request(spec.method, `${OPERATOR_PREFIX[spec.surface]}${path}`, { token, body });
  return [spec.name, value, res.status, res.body.errors];
}

describe('operator path parameters', () => {
  it('walks every operator route with a parameter in its path, integer ids among them', () => {
    const integers = withPathParams.filter((spec) =>
      paramNames(spec).some((name) => !isText((spec.params as TObject).properties[name] as TSchema)),
    );
    expect(withPathParams.length).toBeGreaterThan(15);
    expect(integers.length).toBeGreaterThan(8);
  });

  for (const spec of withPathParams) {
    for (const name of paramNames(spec)) {
      const schema = (spec.params as TObject).properties[name] as TSchema;
      it(`${spec.method} ${spec.path} (${spec.name}) names :${name} in its 422`, async () => {
        // Each has a body its schema takes, or the 422 would name the body's fields instead.
        if (spec.body) expect(Value.Check(spec.body, Value.Create(spec.body))).toBe(true);
        // Text PostgreSQL cannot store is refused on the parameter, text ids and integer ids alike.
        expect(await call(spec, name, '%00')).toEqual([
          spec.name,
          '%00',
          422,
          { [name]: ['customer.request.messages.invalid_characters'] },
        ]);
        if (isText(schema)) return;
        for (const [value, rule] of BAD_INTEGERS)
          expect(await call(spec, name, value)).toEqual([
            spec.name,
            value,
            422,
            { [name]: [`customer.request.messages.${rule}`] },
          ]);
      });
    }
  }
});
