import type { AgeGroupSet } from '../age-groups/model.ts';
import { SCOPES } from '../core/auth/scopes.ts';
import { randomSecret } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { createCustomer } from '../customers/customers.ts';
import { createLegacyKey } from '../legacy-cutover/legacy-keys.ts';
import { createClient } from '../oauth/clients.ts';
import { insertProperty } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';

/** A room type of a demo property (server/demo/structure-step.ts). */
export interface DemoRoomType {
  id: string;
  name: string;
  partner_code: string | null;
  legacy_room_id: number;
  regular_beds: number;
  extra_beds: number;
}

/** One (rate plan, room type) pair of a demo property (server/demo/structure-step.ts). */
export interface DemoRatePlan {
  id: string;
  name: string;
  partner_code: string | null;
  sell_type: string;
  room_type_id: string;
  parent_rate_plan_id: string | null;
}

export interface DemoProperty extends ReturnType<typeof propertyView> {
  room_types: DemoRoomType[];
  rate_plans: DemoRatePlan[];
}

/** What createDemo makes itself, before the feature steps add their parts. */
interface DemoBase {
  customer_id: number;
  client: { client_id: string; client_secret: string; scopes: string[] };
  personal_token: string;
  legacy_api_key: string;
  /** The key's id, for the operator's cutover routes (GET/PUT /ops/legacy-keys/{id}). */
  legacy_api_key_id: number;
  properties: DemoProperty[];
}

/** The parts each feature's step adds (server/demo/demo-steps.ts), by the step that adds it. */
export interface DemoParts {
  /** legacy-step.ts: the legacy facade's key, rooms, booking module and two bookings. */
  legacy: {
    api_key: string;
    property_id: number;
    room_ids: number[];
    ext_room_ids: { ext_room_id: string; room_id: number }[];
    bm_code: string | undefined;
    bookings: { booking_id: number; generation: 'old' | 'current' }[];
  };
  /** config-surfaces-step.ts: one of each configuration entity on the live property. */
  configuration: {
    payment_policy_id: string;
    cancellation_policy_id: string;
    extra_service_id: string;
    promotion_id: string;
    booking_button_id: string;
    special_offer_id: string;
    age_groups: AgeGroupSet;
  };
  /** bookings-step.ts: bookings from several channels, in id order. */
  bookings: { external_booking_id: string; source_channel: string; status: string }[];
  gallery: { image_id: string; url: string };
  content_page: { id: string; slug: string };
  guest_feedback_id: string;
  review_id: string;
  auto_email_template_id: string;
}

/** The demo as a partner receives it from POST /ops/demo: every part of every step. */
export type Demo = DemoBase & DemoParts;

/** The name of every demo's OAuth client; the restart banner finds the first start's by it (./start-banner.ts). */
export const DEMO_CLIENT_NAME = 'demo client';

/** The demo while the steps run: each step reads the parts of the steps before it and adds its own. */
export type DemoInProgress = DemoBase & Partial<DemoParts>;

/** Context each feature's demo step receives: the rows just created, to hang its own fixture on. */
export interface DemoContext {
  deps: Deps;
  customerId: number;
  live: PropertyRow;
  shadow: PropertyRow;
  demo: DemoInProgress;
}

export type DemoStep = (ctx: DemoContext) => Promise<void>;

/**
 * A fresh, independent customer with everything a partner needs to try the API. Names and codes carry a
 * random suffix, so two calls never collide. Feature steps (structure, bookings, legacy) extend it.
 */
export async function createDemo(deps: Deps, steps: readonly DemoStep[]): Promise<Demo> {
  const suffix = randomSecret(4)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .toUpperCase();
  const customerId = (await createCustomer(deps.db, { name: `Demo Hotels ${suffix}` })).id;
  const live = await insertProperty(deps.db, {
    customerId,
    name: `Seaside Demo Hotel ${suffix}`,
    nameTr: { 'en-GB': `Seaside Demo Hotel ${suffix}` },
    currency: 'EUR',
    timezone: 'Europe/Lisbon',
    mode: 'live',
    partnerCode: `SEASIDE-${suffix}`,
    typeId: 1,
  });
  const shadow = await insertProperty(deps.db, {
    customerId,
    name: `Mountain Demo Lodge ${suffix}`,
    nameTr: { 'en-GB': `Mountain Demo Lodge ${suffix}` },
    currency: 'EUR',
    timezone: 'Europe/Vienna',
    mode: 'shadow',
    partnerCode: `MOUNTAIN-${suffix}`,
    typeId: 1,
  });
  const scopes = [...SCOPES];
  const client = await createClient(deps, {
    kind: 'oauth',
    customerId,
    name: DEMO_CLIENT_NAME,
    scopes,
    accountScoped: false,
    propertyIds: [live.external_id, shadow.external_id],
    endpointScopes: [],
  });
  const personal = await createClient(deps, {
    kind: 'personal',
    customerId,
    name: 'demo personal token',
    scopes,
    accountScoped: true,
    propertyIds: [],
    endpointScopes: [],
  });
  const legacyKey = await createLegacyKey(deps, { customerId, propertyId: live.id, active: true });
  const demo: DemoInProgress = {
    customer_id: customerId,
    client: { client_id: client.clientId, client_secret: client.secret, scopes },
    personal_token: personal.secret,
    legacy_api_key: legacyKey.apiKey,
    legacy_api_key_id: legacyKey.id,
    properties: [live, shadow].map((p) => ({ ...propertyView(p), room_types: [], rate_plans: [] })),
  };
  for (const step of steps) await step({ deps, customerId, live, shadow, demo });
  return completed(demo);
}

const PARTS: readonly (keyof DemoParts)[] = [
  'legacy',
  'configuration',
  'bookings',
  'gallery',
  'content_page',
  'guest_feedback_id',
  'review_id',
  'auto_email_template_id',
];

/** The demo once every step ran; a step that did not add its part is a bug in the demo, said by name. */
function completed(demo: DemoInProgress): Demo {
  const missing = PARTS.filter((part) => demo[part] === undefined);
  if (missing.length) throw new Error(`demo steps left out: ${missing.join(', ')}`);
  return demo as Demo;
}
