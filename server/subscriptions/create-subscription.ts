import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { readSubscriptionInput } from './input.ts';
import { CreateSubscriptionBody, SubscriptionWithSecretSchema } from './model.ts';
import { createSubscription, type SubscriptionRow } from './service.ts';
import { subscriptionView } from './view.ts';

export const createSubscriptionRoute = defineRoute({
  name: 'qc.subscriptions.create',
  method: 'POST',
  path: '/subscriptions',
  bucket: 'config-writes',
  scope: 'subscriptions.manage',
  resource: 'subscription',
  tags: ['webhooks'],
  summary: 'Subscribe to events',
  description: [
    'Answers 201 with the subscription and its signing `secret`, shown this once. `url` (or `target_url`) must be',
    'HTTPS, resolve only to public addresses and carry no credentials (422',
    '`customer.subscription.messages.https_required` / `private_address` / `unresolvable_host` / `userinfo`).',
    '`event_types[]` (or `event`) are names from GET /event-catalog; one whose catalogue `scope` the token lacks',
    '(booking.* events: bookings.read; inventory, room type and rate plan events: inventory.read; catalogue and',
    'configuration events: properties.manage) is 403 `errors.qc.insufficient_scope`, before the URL is checked, and the',
    'relay sends such events only while the creating credential holds the scope and is not revoked. An account-level',
    "event listing properties is held to the subscription's properties (README, Webhooks, Events).",
    '`property_ids[]` are external ids or partner codes the token may act on (422',
    '`errors.qc.subscription.unknown_property` otherwise); omitted, the subscription follows every property the',
    'credential may see; an explicit empty list limits it to account-level events (subscription.*), which a fixed',
    'credential with an empty allow-list may make and manage too.',
    'Verifying deliveries: `X-Qc-Signature-256` is `sha256=` + hex HMAC-SHA256 over `<X-Qc-Timestamp>.<raw body>`',
    'keyed with the literal `secret` string, `whsec_` prefix included, as UTF-8 bytes (do not strip the prefix or',
    'base64-decode it).',
  ].join(' '),
  body: CreateSubscriptionBody,
  status: 201,
  response: okSchema(SubscriptionWithSecretSchema),
  errors: ['errors.qc.subscription.unknown_property'],
  async handle({ deps, principal, body, request }) {
    const input = await readSubscriptionInput(deps, principal, body, 'create');
    const kept = keptCreate(request, deps.clock.now());
    const answer = ({ row, secret }: { row: SubscriptionRow; secret: string }) =>
      ok({ ...subscriptionView(row), secret });
    // The secret is kept in the answer as it is in the subscription's own row: the key's retry shows it again.
    return answer(await createSubscription(deps, principal, input, (tx, made) => kept.keep(tx, 201, answer(made))));
  },
});
