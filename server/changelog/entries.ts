/**
 * The dated changelog (spec 9.2), newest first: the one source of GET /v1/qc/changelog and of CHANGELOG.md
 * (written by `npm run changelog`; a test fails when the file and this list disagree).
 *
 * Every behaviour change is tagged `breaking` (with the migration path a partner follows) or `additive`
 * (safe for callers that ignore unknown fields). Entries before 2026-08-27 are not recorded here.
 */
export interface ChangelogChange {
  kind: 'breaking' | 'additive' | 'fix';
  summary: string;
  /** Required for breaking changes: what a partner does to move on. */
  migration?: string;
}

export interface ChangelogEntry {
  date: string;
  title: string;
  changes: ChangelogChange[];
}

export const changelog: readonly ChangelogEntry[] = [
  {
    date: '2026-11-28',
    title: 'Every webhook event is held to the scope and properties its data is read under',
    changes: [
      {
        kind: 'breaking',
        summary:
          'Every event now needs the scope the API reads its data under, as booking events need `bookings.read`: `inventory.read` for `inventory.push.completed`, `room_type.*` and `rate_plan.*`; `properties.manage` for `catalogue.replaced`, `catalogue_sync.completed`, the policy events and every configuration event (age groups, extra services, promotions, special offers, gallery, content pages, guest guide, amenities, reviews, guest feedback, auto-email templates). Subscribing without it is 403 `errors.qc.insufficient_scope` naming the scope, and the relay withholds such events from a subscription whose creating credential lacks the scope or is revoked (`withheld` in `GET /health/webhooks`). `subscription.*` and `property.*` events need nothing beside `subscriptions.manage`. `guest_feedback.*` carries a `booking_id` but needs `properties.manage`, not `bookings.read`: the guest feedback API answers that id under `properties.manage`. README, Webhooks, Events has the table of every event, its data, scope and property rule.',
        migration:
          'Subscribe with a token holding the scope `GET /event-catalog` gives for each event; check `withheld` in `GET /health/webhooks` and recreate an affected subscription with a credential that holds the scope.',
      },
      {
        kind: 'fix',
        summary:
          "`catalogue_sync.completed` was sent to every subscription naming it, whatever its property filter, with the ids of every property the job replaced or cleared: a credential granted some properties learned the ids of the customer's others. `replaced` and `cleared` now list only the properties the subscription covers (those it is sent property-level events of), and a job that touched none of them is not sent to it. `auto_email_template.*`, whose `property_ids` lists the template's targets, is sent only to a subscription covering every target, as the API shows a template only to a credential granted all of them.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: "An account's booking feed reads only its own revisions, whatever other customers hold",
    changes: [
      {
        kind: 'fix',
        summary:
          "An account-scoped consumer of more than 100 properties walked every other customer's booking revisions after its position on each feed poll and ack (a caught-up poll of a 200-property account beside a 3000-property one read 100000 revisions), so one customer's growth slowed another's polls. Each revision now carries its customer (migration 1260) and an account's page is one range of its own revisions after its position, whatever its size. Operators: on a database that held more than 100000 revisions the migration leaves existing rows to `DATABASE_URL=postgres://... npm run revisions:customer-backfill` (resumable batches while the service serves, then the index built concurrently; docs/operations.md, \"Revisions' customer\"); until it has run the feed reads as before. Pages, acks and ordering are unchanged.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: "Webhooks after a restart no longer wait behind another customer's backlog",
    changes: [
      {
        kind: 'fix',
        summary:
          "Deliveries whose scheduled attempt was lost (a service restart, a crashed process, a Redis failover) are picked up again by a sweep of at most 1000 a pass, which took the oldest of all customers: while one subscription had 1000 or more due (a receiver that hangs), no other subscription's were picked up, and their webhooks waited until that backlog fell below 1000. Each pass now shares its 1000 between the subscriptions with deliveries due, each its oldest first, so one subscription's backlog no longer holds up the others' webhooks.",
      },
      {
        kind: 'fix',
        summary:
          'When more than 1000 subscriptions had lost deliveries due at once (every customer after a long outage), each pass took one delivery from each of the same 1000 subscriptions, and the others were not picked up until fewer were due. Passes now serve the subscriptions in turn, so every one is reached within a second per 1000 subscriptions with deliveries due.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: "A booking's Idempotency-Key lasts its 24 hours",
    changes: [
      {
        kind: 'fix',
        summary:
          'The `Idempotency-Key` of `POST /bookings` and `POST /b2b/bookings`, kept with the booking, stayed bound to it for good: the same key days later answered the old booking, or 409 `errors.qc.idempotency_conflict` for another body. As for every other write, the key now answers its booking for 24 hours from the original response and is a new operation after them.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Webhook subscriptions stay within the scopes of the credential that makes them',
    changes: [
      {
        kind: 'breaking',
        summary:
          'Creating or updating a subscription that names a booking event (`booking.*`, alias `booking.arrived` included) now needs `bookings.read` beside `subscriptions.manage`: without it the answer is 403 `errors.qc.insufficient_scope` with `WWW-Authenticate: ... scope="bookings.read"`. A PATCH of such a subscription needs it even when it changes only `url`. Booking event data carries the booking id, revision id and stay dates, which the API reads only under `bookings.read`.',
        migration:
          "Subscribe to booking events with a token that holds `bookings.read` (for OAuth, request it in the token's `scope`). An existing subscription whose creating credential lacks the scope keeps its other events; a PATCH that removes its booking events is allowed.",
      },
      {
        kind: 'breaking',
        summary:
          'The relay no longer sends booking events to a subscription whose creating credential lacks `bookings.read` or has been revoked. `GET /health/webhooks` names them per subscription in the new `withheld` (`[{event_type, scope, reason}]`, `reason` `insufficient_scope` or `credential_revoked`).',
        migration:
          'Check `withheld` in `GET /health/webhooks`; recreate an affected subscription with a credential that holds `bookings.read`.',
      },
      {
        kind: 'fix',
        summary:
          'The delivery log (`GET /deliveries`, the deliveries of `GET /health/webhooks`) and redelivery no longer show a booking delivery, body included, to a token without `bookings.read`; it reads as missing (404 on redelivery).',
      },
      {
        kind: 'additive',
        summary:
          '`GET /event-catalog` entries carry `scope`: the scope a token needs beside `subscriptions.manage` to subscribe to the event (`bookings.read` for booking events, null otherwise).',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'The token endpoint answers every refusal with an RFC 6749 error code where one fits, and never cached',
    changes: [
      {
        kind: 'additive',
        summary:
          "`POST /oauth/token` adds RFC 6749 5.2's `error` beside the envelope to the refusals that lacked it: `invalid_request` on a 422 for a field of the wrong type or a body that is not valid JSON, and on 413 and 415; `server_error` on a 500; `temporarily_unavailable` on a 503. A 429 still carries none (RFC 6749 has no code for it): read its status and `Retry-After`.",
      },
      {
        kind: 'fix',
        summary:
          '`POST /oauth/token` sent `Cache-Control: no-store` on a token only: its refusals now carry it too, and every answer also `Pragma: no-cache`, as RFC 6749 5.1 and 5.2 ask.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Legacy cutover: a key is flipped to live only once its zero streak has earned it',
    changes: [
      {
        kind: 'breaking',
        summary:
          '`PUT /ops/legacy-keys/{id}/cutover {"mode": "live"}` flipped any key in shadow at once, one whose last day differed by 40 % or that was never compared included, and after the flip a difference can no longer be seen. From shadow to live it is now refused with 409 `errors.qc.cutover_not_ready` (`zero_streak_days`, `required_streak_days`, `last_difference` `{date, score}` or null, `has_comparisons`) until the zero streak reaches `QC_LEGACY_CUTOVER_STREAK_DAYS` days, default 90: the shutdown rule of spec 9.4, which the sunset also waits for. `"force": true` flips it anyway: the answer carries `forced` with those figures and the flip is logged at warn (`legacy cutover forced`). Flips to shadow, live to live and keys created live are unchanged.',
        migration:
          'A script that flips keys to live before they meet the rule (a demo or test key without shadow history) sends `"force": true` with the mode, or the service runs with a lower `QC_LEGACY_CUTOVER_STREAK_DAYS` (0: no check).',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Price pushes name a misspelled rate or prices field; push refusals type their rows',
    changes: [
      {
        kind: 'additive',
        summary:
          'A price push refused with `errors.qc.rate_or_prices_required` because a row misspelled `prices` or `rate` (`price`, `rates`) now names it: `unknown_fields: ["values.0.price"]` beside the key, and in `detail`, as the restriction push does.',
      },
      {
        kind: 'additive',
        summary:
          'The `rows` every inventory push has always answered with its 422 domain refusals (`[{row, room_type_id, rate_plan_id?}]`) is now described in the API document, so the typed client has a type for it; so are the `limit`, `max` and `actual` of `errors.qc.batch_too_large`, on the pushes and the per-plan rate write.',
      },
      {
        kind: 'fix',
        summary:
          'The per-plan rate write (`POST /rate_plans/{id}/rates`) stored a code longer than 20 characters on a pair with no configured vocabulary, where no vocabulary can hold it. Such a row is now refused as a blank code is: a `bad_acm_key` row error; the other rows are written.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      "One channel gateway that hangs no longer delays other replies; one customer's many tokens no longer slow others",
    changes: [
      {
        kind: 'fix',
        summary:
          'Review replies were sent to the channel gateway one after another, each allowed 10 seconds: a gateway hanging on one reply held back every other reply of the batch, and a batch with more than six silent replies outlasted its 60-second claim, so its replies were claimed again and sent twice (a second `review.reply_sent` event). A batch is now sent at once: every reply is sent within 10 seconds of its claim, once.',
      },
      {
        kind: 'fix',
        summary:
          "Past 10000 tokens in use in one process, the service dropped every cached token, so one customer using many personal tokens made every other customer's next requests slower. Only the least recently used token is dropped now.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Configuration writes that change nothing send no webhook; a rename refreshes the filled-in name_tr',
    changes: [
      {
        kind: 'fix',
        summary:
          'A PATCH of a content page, guest feedback, auto-email template or room type mapping, or a PUT of the guest guide or an amenity set, that changed nothing still recorded its `.updated` event (a webhook to every subscriber) and moved `updated_at`; the guide also gave its items new ids. It now writes nothing, as policies, extra services, promotions and special offers already did.',
      },
      {
        kind: 'fix',
        summary:
          'A PATCH renaming a payment or cancellation policy, extra service, promotion, special offer or rate plan without `name_tr` kept the `name_tr` filled in at creation (`{"en-GB": <old name>}`), so the booking engine could show the old name. That filled-in `name_tr` now follows the new name; a `name_tr` you set is kept.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Operators: replica lag measured in full, LISTEN in place after a late database, quieter /readyz',
    changes: [
      {
        kind: 'fix',
        summary:
          "The read replica's lag left out the time the primary took to answer its WAL position (a pool wait included), so lag-tolerant reads could be served from a replica further behind than `QC_REPLICA_MAX_LAG_MS`, and read-your-writes fall short by as much. The lag now counts it.",
      },
      {
        kind: 'fix',
        summary:
          'A process started while `DATABASE_SESSION_URL` was out of reach never cached principals for its life, although the LISTEN came into place once the database was back. The cache now starts then, and the outbox relay logs `outbox LISTEN in place` once after its warning.',
      },
      {
        kind: 'fix',
        summary:
          '`/readyz` logged a warning for every failed probe (one a second per process with a balancer checking every second while Redis was down). It logs a dependency going down once, and `readiness probe ok again` when it is back.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Subscription events reach only the credentials that see the subscription',
    changes: [
      {
        kind: 'fix',
        summary:
          'A `subscription.*` event (with the subscription id and URL) was sent to every subscription of the customer naming it, so a credential limited to some properties received the events of subscriptions `GET /subscriptions/{id}` answers it 404, and read them in its delivery log. It reaches a subscription only when the credential that created it sees the subscription the event is about; `GET /deliveries`, `GET /health/webhooks` and redelivery keep to the same rule for the caller.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Inventory pushes name a misspelled restriction field, and take only codes a vocabulary could hold',
    changes: [
      {
        kind: 'additive',
        summary:
          'A restriction push refused with `errors.qc.restriction_payload_empty` because a row\'s only field was misspelled (`min_stya`) now names it: `unknown_fields: ["values.1.min_stya"]` beside the key, and in `detail`. A written push already named such fields in `warnings`.',
      },
      {
        kind: 'fix',
        summary:
          'A price push to a pair with no configured vocabulary stored a blank code (`""`) or one longer than 20 characters, which no vocabulary can hold and nothing could read or price. Such a code is now a row warning `errors.qc.unknown_acm_code` (with `allowed_codes: []`), as an unknown code is on a pair with a vocabulary; the rest of the batch is written.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Shadow comparisons that failed are counted, and samples say when they were taken',
    changes: [
      {
        kind: 'additive',
        summary:
          'Legacy cutover, keys in mode `shadow`: a comparison that itself failed (the property\'s actor lock not taken, a database error while the port computed its answer) was only logged. It is counted: per day `failed` in `GET /ops/legacy-keys/{id}/shadow-scores` (not as different, so the score and the zero streak are unchanged), `qc_legacy_shadow_uncompared_total{reason="failed"}`, and the harness\'s `report --from-service` says how many were not compared.',
      },
      {
        kind: 'fix',
        summary:
          "A shadow sample's `at` is when the PMS asked (it was when the comparison ran, up to 10 s later, possibly on the next day), and the harness's report shows it beside each sample's `#N` as a UTC date and time.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Database outages around a failover, a dropped pool or on a read replica answer as documented',
    changes: [
      {
        kind: 'fix',
        summary:
          'A write that reached a database server taking no writes (a hot standby a pooler still pointed at around a failover) answered 500 `errors.internal_error`; it answers 503 `errors.service_unavailable` with `Retry-After`: it was not applied, retry it.',
      },
      {
        kind: 'fix',
        summary:
          'A write whose COMMIT was in flight when the service dropped its database connections (recovering from connections that went silent) answered 503 `errors.service_unavailable`, "not applied", although the database could complete it; it answers `errors.qc.write_outcome_unknown`: retry with the same `Idempotency-Key`.',
      },
      {
        kind: 'fix',
        summary:
          'A gallery upload answered `errors.qc.write_outcome_unknown` that had in fact been recorded lost its image bytes: the retry with the same key answered the image, whose URL then answered 404. The bytes are kept.',
      },
      {
        kind: 'fix',
        summary:
          'Lag-tolerant reads (availability, rates, the booking list) that the read replica cancelled for a conflict with its replay answered 500; they are answered from the primary, as a read the replica fails is.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'The API document lists the 413 every route that reads a body can answer',
    changes: [
      {
        kind: 'fix',
        summary:
          'OpenAPI: every operation with a request body lists 413 `errors.qc.payload_too_large` and its `limit_bytes` (the largest body the route reads), which each of them answers to a body over its limit before reading it; none listed it, so a typed client had no type for the answer. The answers are unchanged.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Legacy PMS v1: pausing a property group stops its legacy keys too',
    changes: [
      {
        kind: 'fix',
        summary:
          "Legacy facade: a key whose property is in a paused group, or no longer belongs to the key's customer, answers 401 `Wrong api key! **` (an inactive key) on every method, and serves again once the group is resumed. It went on reading and writing the property's calendar and bookings, while pausing a group takes its properties out of every credential's reach. A disabled property is answered by each method as before (getBookingOffers: `Property owner not found.`).",
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      'Inventory: a push the database failed mid-way answers 503 to retry; calendar reads take the whole push window',
    changes: [
      {
        kind: 'fix',
        summary:
          'A calendar write whose statement was cancelled (a statement timeout, an operator) or whose database connection was lost answers 503 `errors.service_unavailable` with `Retry-After` on the three inventory pushes and on `POST /rate_plans/{id}/rates`, as every other request then does: nothing was applied, retry the same push. The pushes answered 500 `errors.internal_error`, and the per-plan write 200 with every row `write_failed`, which an `Idempotency-Key` kept, so a keyed retry replayed the failure for 24 hours. Other failures of the bulk write answer as before.',
      },
      {
        kind: 'additive',
        summary:
          '`GET /properties/{ext}/availability` and `GET /properties/{ext}/rate_plans/{id}/rates` take ranges of up to 733 days (was 732): the whole window a push accepts (yesterday through the same date two years ahead) holds 733 days when it spans a 29 February, as it does until 2028, and was refused with 422 `range_too_long`.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      "Webhooks keep to the allow-list: paused and disabled properties send nothing, and a narrowed subscription's log hides the other properties' events",
    changes: [
      {
        kind: 'fix',
        summary:
          'A subscription that lists its properties (`property_ids`) gets no delivery of an event of a property that is disabled or in a paused group, as an all-properties subscription already did: the README says such a property receives nothing, and the feed and the allow-list already hid it. Events of the time it was out are not sent afterwards; poll the feed from `since=0` after it is back.',
      },
      {
        kind: 'fix',
        summary:
          "`GET /deliveries`, `GET /health/webhooks` (`deliveries`) and `POST /deliveries/{id}/redeliver` leave out a delivery of an event of a property outside the caller's allow-list (redelivery answers 404 `errors.not_found`). Whether a credential sees a subscription is checked against its current `property_ids`, but its log kept the events of the properties it named before a `PATCH` narrowed it: a credential of the remaining property read the other property's booking events and could redeliver them to a URL it had just set.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'Legacy PMS v1 input read as the PHP service read it: stray percent signs, bodies that are not UTF-8',
    changes: [
      {
        kind: 'fix',
        summary:
          "Legacy facade: a query or form value holding a `%` that starts no escape (`bm_code=Sea%20View%`) has its well-formed escapes decoded, as PHP's `urldecode` did (`Sea View%`); the whole value was kept as sent, escapes and all.",
      },
      {
        kind: 'fix',
        summary:
          "Legacy facade: a JSON body whose bytes are not UTF-8, or that starts with a byte-order mark, is no input (the method's own bad-request message, as `json_decode` made it for the legacy service); it was read with U+FFFD in place of the bytes and without the mark, so postExternalPropertyData stored such a name and answered `Success`.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'A used policy can be freed; configuration refusals, duplicates and repeated PATCHes answer as documented',
    changes: [
      {
        kind: 'additive',
        summary:
          '`PATCH /properties/{ext}/rate_plans/{id}` takes `payment_policy_id` and `cancellation_policy_id` (a live policy of the property; another: 422 rule `not_found`), so the plans a policy DELETE names in its 409 `errors.qc.payment_policy_in_use` / `cancellation_policy_in_use` can be moved and the policy deleted. The fields were ignored with an `errors.qc.unknown_field` warning, and nothing else could move a plan.',
      },
      {
        kind: 'fix',
        summary:
          'A PATCH of a payment or cancellation policy, extra service, promotion or special offer that changes nothing (every field sent already holds that value) writes nothing: no `.updated` event or webhook, `updated_at` kept. Each such PATCH recorded the event, so a retry without `Idempotency-Key` announced a change that did not happen.',
      },
      {
        kind: 'fix',
        summary:
          'One record named twice in one request, once by external id and once by partner code (or in another letter case), is refused as a repeat written alike always was: `POST /catalogue-sync` (422 `properties.N.property_id` rule `duplicate`; the later catalogue silently won), auto-email template `property_ids` (422 `unique`; stored twice), and the `image_ids` of property, room type and content page images (422 `unique`; attached twice).',
      },
      {
        kind: 'fix',
        summary:
          'API document: the fields configuration refusals answer beside their key are described on their operations (`rate_plan_ids` on a policy DELETE 409, `usages` on a gallery DELETE 409, `file` and `index`, `image_id`, `item`, `feedback_id`, `property_id`), and PATCH extra_services and special_offers say that `client_select_dates_settings` and `sfp` merge field by field, as they do (the document said they were replaced whole); the `derivation.periods` of a child plan may overlap, and a day takes the first listed period that holds it (as it always did; undocumented).',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: "One customer's revisions no longer slow another's feed polls; GET /properties reads the page it answers",
    changes: [
      {
        kind: 'fix',
        summary:
          "The revision feed of an account-scoped credential of up to 100 properties (`GET /booking_revisions/feed` and the acks) reads a span of twice the page after the consumer's position, then its own properties' revisions: it walked every other customer's revisions after that position, on every poll and ack (a caught-up account of 3 properties beside one of 3000: 2000 rows a poll, 0.7 s at 500000). Larger accounts are read as before. The answers are unchanged.",
      },
      {
        kind: 'fix',
        summary:
          "`GET /properties` with an account-scoped credential of more than 100 properties reads its page from an index of the customer's properties by creation (migration 1160: `properties_customer_created` replaces `properties_customer`); it sorted all of the account's properties for every page. A smaller account's few ids are probed and sorted, as before: cheaper there. A credential narrowed to some properties has its allow-list read by probing those ids, not by filtering all of the customer's properties. The answers are unchanged.",
      },
      {
        kind: 'fix',
        summary:
          'Property groups: the README and the API document say that a group holds at most 1000 properties (`property_ids` is the whole member list, and more is a 422 `property_ids` `max_items`, as it was); properties to pause together beyond that go in several groups.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      "Webhooks and acks as the guide says: an unreachable receiver's pause grows only when a probe fails, acks stay idempotent after retention, next_retry_at never in the past, a receiver sample that runs",
    changes: [
      {
        kind: 'fix',
        summary:
          'A subscription whose receiver gives no answer pauses 5 s after 3 attempts in a row, then one probe, and only a probe that finds it still unreachable doubles the pause (up to 5 minutes), as the README says. Each attempt already sent when the pause began (up to 16) doubled it as it ended without an answer: six in flight took the first pause to 40 s before a probe, sixteen to the 5-minute cap.',
      },
      {
        kind: 'fix',
        summary:
          "`POST /booking_revisions/{id}/ack` and `POST /bookings/{id}/ack` stay idempotent after retention deleted the acks behind a consumer's watermark (30 days after the ack, `QC_RETENTION_ACK_DAYS`): a revision at or below the watermark is acked, so a repeat stores nothing, `acked_now` does not count it and `acked_revision_ids` lists it; the revision ack answers, its first `acked_at` deleted, the newest ack time deleted for that consumer and property (a time by which it was acked). Before, a repeat stored a new ack and answered a new time.",
      },
      {
        kind: 'fix',
        summary:
          '`GET /health/webhooks`: `next_retry_at` is never before now (a delivery past its time waits to be sent, for instance while an unreachable receiver is paused; it showed minutes in the past) and is null for a disabled subscription, whose deliveries are parked (it showed times that would not come).',
      },
      {
        kind: 'fix',
        summary:
          "The README's webhook receiver sample defines the `queueFeedPoll` it calls (a stub that says what to put there) and takes its port from `PORT`: copied as it stood, every genuine delivery threw, was answered 500 and was retried until the subscription was disabled. The test suite now runs the sample against the service.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      'Legacy facade: NUL bytes and non-text values answered as the legacy did; load scripts whose thresholds apply',
    changes: [
      {
        kind: 'fix',
        summary:
          "Legacy PMS v1 facade: a string holding a NUL byte answered 404 `Throw Error Exception ... invalid byte sequence for encoding \"UTF8\": 0x00 ... Code: 22021`. Looked up (`ext_room_id`, `revision_id`, `bm_code`), it now matches nothing and the method answers its own message (`Can't find room id for the given ext room id...`, `Missing booking revision!`, `Booking module '...' not found or inactive.`), as the legacy service did; to be stored, it fails the method's bad-request check when the field is required (ackBooking's `ext_reservation_id`, postRoomAssignment's `room_number`, postExternalPropertyData's `id`, `name` or any code in `mapping_data`) and is not stored when it is optional.",
      },
      {
        kind: 'fix',
        summary:
          'The inbound channel webhook refuses a lone UTF-16 surrogate (such as `\\ud800`) in a review as it does in a reservation: 422 `errors.qc.webhook.payload_invalid` naming the field (`review.title`: `invalid_characters`), and nothing is stored. A review took it and stored U+FFFD.',
      },
      {
        kind: 'fix',
        summary:
          'Legacy `booking/postRoomAssignment`: a `room_number` sent as an array, an object or a boolean was stored as text (`[object Object]`); it is now missing (400 `Bad request data! (booking_id, booking_item_id or room_number missing)`), and such a `self_checkin_code` is not stored, as ackBooking always read them.',
      },
      {
        kind: 'fix',
        summary:
          'k6 load scripts (`load/`): `legacy.k6.js` tagged its scenarios `method`, a tag k6 sets itself to the HTTP verb, so its two latency thresholds selected nothing and could never fail; the tag is `legacy_method` (thresholds `http_req_duration{legacy_method:getBookings}` and `{legacy_method:updateAvailability}`). Its checks now want `{"message":"Success"}` and a `data` list, `ROOM_IDS` is optional (default: the rooms getPropertySettings lists), and `inventory-push.k6.js` counts an error answer as a failed check instead of stopping the iteration with a TypeError.',
      },
    ],
  },
  {
    date: '2026-11-28',
    title: 'The API document says what the service answers and accepts; the token endpoint names a missing grant_type',
    changes: [
      {
        kind: 'fix',
        summary:
          'OpenAPI: `POST /bookings` and `POST /b2b/bookings` list their 200 (a `reference` already used on the property and channel: the booking it made, nothing created) beside the 201, with the same body; the typed client (`client/schema.d.ts`) has a type for it.',
      },
      {
        kind: 'fix',
        summary:
          'OpenAPI: request bodies no longer say `additionalProperties: false` (the document said it for the routes that had run before it was first fetched, the token endpoint and `POST /bookings` among them): a field an operation does not declare is accepted and named in `warnings`, at every depth, as the service always did. Maps of locale tags (`body_html`, `subject`) keep refusing other keys, as the service does.',
      },
      {
        kind: 'additive',
        summary:
          "OpenAPI: error answers describe the fields they add: `accepted_content_types` on every 415, and the RFC 6749 `error` on the token endpoint's 401 (`invalid_client`) and 422 (`invalid_request`, `unsupported_grant_type`, `invalid_scope`). The answers are unchanged.",
      },
      {
        kind: 'fix',
        summary:
          '`POST /oauth/token` without `grant_type`: `errors.grant_type` is `customer.oauth.messages.required`, agreeing with `error: "invalid_request"` (a missing parameter, RFC 6749 5.2); it said `unsupported_grant_type`, the rule of a grant type sent but not served, which is unchanged.',
      },
      {
        kind: 'fix',
        summary:
          "The README and the document's description list every route that needs no token: `POST /oauth/token`, `GET /.well-known/jwks.json` and `GET /changelog` (left out), besides the document and its docs page.",
      },
      {
        kind: 'fix',
        summary:
          "Operators: after `POST /ops/demo`, a restart of `npm start` printed the newest demo's client with a rotate-secret line, which changed another customer's secret. It names the demo client the first start printed (the oldest customer's), and none once that client is revoked.",
      },
    ],
  },
  {
    date: '2026-11-28',
    title:
      'Fixes from a second audit: records named in a path answer 404 before the body, dates the database cannot store refused on their field, operator API checks, data exceptions reported, legacy shadow samples keep every byte and count what the ignore rules forgave',
    changes: [
      {
        kind: 'fix',
        summary:
          "`PATCH` and `DELETE /special_offers/{id}`, `GET` and `PATCH /property-groups/{id}`, every route under `/subscriptions/{id}`, `GET` and `PATCH /auto_email_templates/{id}` (and its `/preview`) and `POST /bookings/{id}/room-assignment` answer 404 `errors.not_found` for another customer's record, one outside the token's allow-list or an unknown id whatever the body or query, as a property the token may not see does: with an invalid body (or `?locale=`) they answered 422 `errors.validation_error` first, and a template id that is no UUID 422 `format`. The record is now checked before the body is read, and that 404 claims no `Idempotency-Key`; a keyed retry of a `DELETE` that went through still replays its first answer. A property group answers 403 `errors.qc.account_scoped_credential_required` to a credential narrowed to some properties before the body as well.",
      },
      {
        kind: 'fix',
        summary:
          "`POST /booking_revisions/{id}/ack`, `POST /bookings/{id}/ack`, `POST /deliveries/{id}/redeliver`, `GET` and `DELETE /gallery/{id}`, `PUT /properties/{ext}/room_types/{id}/images` and `GET /catalogue-sync/{id}` answer 404 `errors.not_found` for another customer's record, one outside the token's allow-list, an unknown id or one of the wrong form whatever the body: the acks and the redelivery answered 422 `errors.validation_error` for an invalid body first, and `GET` and `DELETE /gallery/{id}` 422 `format` for an id that is no UUID; a keyed retry of an image delete that went through replays its first answer. The record is checked before the body is read, once (the ack takes the row it found); a keyed retry of an ack replays as before, and so does a keyed retry of a redelivery after its subscription was deleted.",
      },
      {
        kind: 'fix',
        summary:
          "Every route naming a record under `/properties/{ext}` answers 404 `errors.not_found` for another property's record (yours or another customer's), an unknown id or an id of the wrong form whatever the body or query, as it does for a property the token may not see: `GET`, `PATCH` and `DELETE` of payment and cancellation policies, extra services, promotions, content pages and guest feedback, `GET` and `POST .../reply` of reviews, `GET`, `POST .../cancel` and `.../no_show` of bookings, `GET` and `PATCH` of room types and rate plans, `PUT .../pricing-model`, `GET` and `POST .../rates`, `GET` and `PUT` a room type's `.../amenities`. With an invalid body (or `from`/`to`) they answered 422 `errors.validation_error` first, and a guest feedback or review id that is no UUID 422. The record is checked before the body is read, after its property, and that 404 claims no `Idempotency-Key`. `DELETE /auto_email_templates/{id}` checks its template there too: another customer's with an invalid body, or an id that is no UUID, answered 422. A keyed retry of a write whose record is gone since, a `DELETE` that went through or a `PATCH` of a record deleted since, replays its first answer for the same body, as before.",
      },
      {
        kind: 'fix',
        summary:
          "A date (`YYYY-MM-DD`) in the year 0000 is refused as 422 `format` on its field: it passed the format and the database refused it, answered 422 on `request`. A date-time (guest feedback's `answered_at`) is refused as 422 `format` when it names a day that does not exist (`2026-02-30` was stored as 2 March), an instant outside the years 0100-9999 (before 0100 it was answered back a century or two off; 0000 and earlier 422 on `request`), or is sent in quotes (a 500 `errors.internal_error`).",
      },
      {
        kind: 'fix',
        summary:
          'The `detail` of a 422 says the rule `invalid` in words (`request: carries a value the database cannot store ...`, `<field>: is not a value this field takes.`) instead of `breaks the rule "invalid"`, and so for `unique`, `null`, `too_deep` and `invalid_characters`.',
      },
      {
        kind: 'fix',
        summary:
          '`GET` and `POST /booking_buttons/{id}/special_offers` with a button of another customer, or an unknown id, answer 404 `errors.not_found` whatever the body or query, as a property the token may not see does: with an invalid body (or a bad `page`) they answered 422 `errors.validation_error` first. The button is now checked before the body is read, and a 404 claims no `Idempotency-Key`.',
      },
      {
        kind: 'additive',
        summary:
          'Operators: a database data exception (SQLSTATE class 22) is still answered 422 `errors.validation_error` (`errors.request`), never a 5xx, but each one is now reported, since it can hide a bug in a value the service built itself: its incident carries `detail` with `caught_by: "class-22 net"`, the `sqlstate` and the database\'s message, a warning `data exception caught by the class-22 net` is logged, and the new counter `qc_data_exceptions_caught_total` at `GET /metrics` counts them (alert on any increase; docs/operations.md).',
      },
      {
        kind: 'fix',
        summary:
          'Operator API: a row id in the path that is out of range or no whole number (`/ops/bookings/0`, `/ops/customers/99999999999999999999/dashboard-token`, `/ops/legacy-keys/1.5`) is 422 naming its parameter, `errors: {id: [...min | max | integer]}`; it said `property`, and `1.5` answered 404 or 422 `request`.',
      },
      {
        kind: 'fix',
        summary:
          'A review whose rating is above its scale (`rating_scale`, or the channel\'s: 5 for Expedia, Airbnb, Google, 10 for the others) is refused on both intakes, and the stored review keeps its rating: `POST /ops/reviews` answers 422 `errors.validation_error` with `errors: {rating: ["customer.review.messages.max"]}`, the inbound channel webhook 422 `errors.qc.webhook.payload_invalid` with `errors: {"review.rating": [...max]}` (as for any fault of its payload; a `stayed_on` or `submitted_at` it cannot read was answered `validation_error` there); a 9 on Expedia\'s 5 was stored as it came.',
      },
      {
        kind: 'fix',
        summary:
          "Operators: `qc_idempotency_replays_total` counts the operator API's and the dashboard's replays under a repeated `Idempotency-Key` and a create answered from the key it kept with what it made (a booking taken through `POST /bookings`, `POST /b2b/bookings` or the operator intake included), on either API; it counted the modern API's store replays only.",
      },
      {
        kind: 'fix',
        summary:
          'Operators: every request now has its `request` log line and its count in `qc_http_requests_total`. A path no route serves (`/v1/qc/nope`, `/nothing-here`) had neither, so the ticket of its 404 was found nowhere: it is counted under `route="unmatched"` and its line carries the `ticket` (still no stored incident). The operator API and the dashboard had only their refusals logged, so minting a credential left no trace: their requests are logged and counted under the operation\'s name (`ops.customers.create`, `dashboard.api_tokens.create`), the line naming the caller (`client_id: "operator"`, or `"dashboard"` with the session\'s `customer_id`) and never a token, secret or body. Every error answer\'s line carries its `ticket`.',
      },
      {
        kind: 'fix',
        summary:
          "Operators: a start-up that cannot go on for a cause fixed outside the code prints one line naming it and exits 1, as a busy port did: a `DATABASE_URL` that cannot be reached (refused, unknown host or database, login refused), a `QC_KEY_ENCRYPTION_KEY` that does not open the database's signing keys, a missing or malformed `QC_LEGACY_SHADOW_IGNORE_FILE` (named; these printed a stack trace), and a wrong variable given to `npm run retention`. A variable that takes a few values lists them (`QC_LOG_LEVEL must be one of 'info', 'warn', 'error', 'silent'`, not `expected union value`), and `QC_KEY_ENCRYPTION_KEY`'s pattern is printed with its letter case. The first start's banner prints the operator token only when it generated it: a `QC_OPERATOR_TOKEN` given through the environment was echoed and said to be kept in a file never written.",
      },
      {
        kind: 'fix',
        summary:
          'Operators: `npm run calendar:backfill -- --help` prints its usage; an unknown option or a bad value (`--batch abc`, `--pause-ms -5`) is refused in one line with exit status 2 (they were ignored, and `--help` ran the backfill). Without `DATABASE_URL` it refuses (exit 2) instead of creating an embedded database and failing with a stack trace, and on a database that was never migrated it says so in one line (exit 1).',
      },
      {
        kind: 'additive',
        summary:
          'Operator API and dashboard: a body field an operation does not declare is still ignored, and is now named in the answer, as on the modern API: `warnings: [{field, key: "errors.qc.unknown_field"}]` beside `data`, `field` the path (`rooms.0.smoking`). An answer without such a field is unchanged.',
      },
      {
        kind: 'fix',
        summary:
          "Legacy cutover, keys in mode `shadow`: a differing exchange whose legacy answer held a NUL byte was counted but its sample was lost, and bytes that are not UTF-8 were kept as U+FFFD. Samples now keep the exact bytes each side sent (guest data still masked in place). In `GET /ops/legacy-keys/{id}/shadow-scores` a sample's `body` stays the text; when the bytes are not UTF-8, `body_base64` (and `request_body_base64`) carries them exactly. The harness's report shows such bytes escaped (`\\x00`).",
      },
      {
        kind: 'additive',
        summary:
          '`GET /ops/legacy-keys/{id}/shadow-scores` adds `ignore_rules` (per ignore rule of `QC_LEGACY_SHADOW_IGNORE_FILE`: the exchanges it forgave a difference in, and the first day and field) and, per day, `forgiven` (exchanges equal only thanks to the rules). The score is unchanged: a forgiven difference is not a difference. The harness lists every rule with its count on stdout, in `--json` (`ignore_rules`) and in its report.',
      },
      {
        kind: 'fix',
        summary:
          'The harness\'s report said "N of M" where N counted something else than M: noise learnt from a secondary recording counted each varying array element ("8 of 2" pairs), and a report from the service\'s shadow scores compared its samples with themselves. Noise is counted in pairs, and the report says how many differing exchanges the service kept as samples ("2 of 40 kept whole").',
      },
    ],
  },
  {
    date: '2026-11-27',
    title: 'Fixes from an audit of the interface over HTTP',
    changes: [
      {
        kind: 'fix',
        summary:
          'Security, legacy facade: a query or form field named like `__proto__[x]` reached `Object.prototype` and set `x` on every object of the service process, for any caller, before the api_key was checked. Such names are now keys of the request like any other, as they were in PHP. The same parser did work in the square of the number of `[]` fields: 4000 `a[]` in one URL held the whole service for 2 s, before the api_key was checked; it is linear now.',
      },
      {
        kind: 'fix',
        summary:
          'Idempotency-Key on a route that answers a secret (dashboard personal tokens, client creation and secret rotation, legacy keys, dashboard tokens, the demo): a replay showed the secret again and the idempotency store kept it for 24 hours. The store now never holds it; a replay answers the first answer with the secret `null`, `secret_withheld` naming the withheld fields, and a `detail` saying how to get a new one.',
      },
      {
        kind: 'fix',
        summary:
          'A JSON body that is not an object (a string, number, array or `true`) on a route whose body is an object is 422 `errors.validation_error` with `errors.body: ["customer.<resource>.messages.object"]`, and nothing is written. It could be read as `{}`: a `PUT .../catalogue` with `"hello"` erased the catalogue.',
      },
      {
        kind: 'fix',
        summary:
          'A value of the wrong JSON type is refused on its own field with its rule: `"name_tr": "str"` is 422 `name_tr: object` (it was stored split into characters, `{"0":"s",...}`), `"rooms": "x"` or `"values": 1` is 422 `rooms: array` / `values: array` (errors were reported on `rooms.0.code`, `values.0`). A number written as text (`"qty": "5"`) is still read as the number.',
      },
      {
        kind: 'fix',
        summary:
          'A `__proto__` key anywhere in a JSON body is ignored and named in `warnings`; it no longer supplies values for fields the body did not send. The operator and dashboard APIs check their JSON bodies the same way (a body that is not an object is 422 `body: object`; `__proto__` is dropped).',
      },
      {
        kind: 'fix',
        summary:
          "422 rules name what failed: `max_length` or `string` on nullable text fields (it was `invalid`), `min_items` for `room_type_ids: []` on a rate-plan create (it was `required`), `min_length` on a cancellation policy's `name_tr` that holds only empty texts. A paging 422 names its parameter (`errors: {per_page: [...min]}`; it said `property`), as does `GET /amenities?property_type_id=0`.",
      },
      {
        kind: 'fix',
        summary:
          "A request under `/properties/{ext}` for a property that is missing, another customer's or outside the token's allow-list answers 404 `errors.not_found` whatever its body, before body validation, a malformed-JSON 422, a 413 or a 415 (with an invalid body it answered 422). Such a 404, and a 413 `errors.qc.payload_too_large`, neither claim nor replay an `Idempotency-Key` (a 413 was stored as if its body were empty).",
      },
      {
        kind: 'fix',
        summary:
          "Routes a form cannot write (numbers, lists, nested bodies: the pushes, most creates) list only `application/json` in a 415's `accepted_content_types`; routes whose every body field is text still read forms. The token endpoint's 415 asks for its form, and its 401 carries `WWW-Authenticate: Basic` (RFC 6749 5.2).",
      },
      {
        kind: 'fix',
        summary:
          '`endpoint_scopes` takes exact route names and `qc.<resource>.*` only: `qc.*` and other wildcards wider than one resource are 422 `unknown_endpoint` (`qc.*` was accepted and matched every route).',
      },
      {
        kind: 'fix',
        summary:
          "`POST /properties` (and the operator's) refuses a currency that is not a circulating ISO 4217 code and a timezone that is not an IANA name as the tz database spells it (no UTC offsets, exact letter case) with 422 rule `in`; links such as `Asia/Calcutta` are accepted, existing properties are unaffected. A child rate plan's `derivation.periods[].from/to` must be days that exist (422 `format`). A room type created with both `kind` and `type` needs them to agree (422 `differs_from_kind` on `type`).",
      },
      {
        kind: 'fix',
        summary:
          'Guest masking keeps whole characters: a last name or e-mail starting beyond the Basic Multilingual Plane (`𠮷田`, `𝒜nn@x.com`) made every booking intake, inbound webhook and operator booking write fail with 422; such bookings are accepted and masked as `𠮷.` / `𝒜********`.',
      },
      {
        kind: 'fix',
        summary:
          "Inbound channel webhook: cancelled and confirmed revisions carry the `revision_id` the channel sent with that delivery (they repeated the previous delivery's); a delivery without one gives `external_revision_id: null`, as creations and modifications did. Changes by the hotelier or operator keep the booking's last channel reference.",
      },
      {
        kind: 'fix',
        summary:
          "Undeclared body fields are named in `warnings` on the per-plan rate write's rows (`values.0.roomtype_id`; the price went to every room type without a word), on no-show, revision ack, subscription enable, rotate-secret and delete, delivery redeliver, the configuration deletes, and in the inbound webhook's reservation or review.",
      },
      {
        kind: 'fix',
        summary:
          'A NUL in a query parameter of the revision feed or the bookings list is dropped like any malformed value (it was 422 `invalid_characters`, where the interface says malformed values are dropped). A subscription PATCH that changes nothing answers the subscription as it is: `updated_at` is kept and no `subscription.updated` event is sent.',
      },
      {
        kind: 'fix',
        summary:
          'A cancellation policy can be created with only `name` (`name_tr` omitted stores `{"en-GB": <name>}`, as the README said). Guest feedback PATCH merges `scores` category by category, and `null` removes a category (it was 422).',
      },
      {
        kind: 'fix',
        summary:
          "Analytics: a range whose `to` is exactly 366 days after `from` is accepted (it was 422 `max_range`); an upstream's `sessions`, `searches`, `clicks` and `cost` pass through as non-negative numbers or null (a number made the report 502).",
      },
      {
        kind: 'fix',
        summary:
          'Legacy facade: `getBookingOffers` names an extra service named only in translations as `getPropertySettings` does (it answered `""`), and a `multipart/form-data` body is read like `$_POST`, as a form-encoded one.',
      },
      {
        kind: 'fix',
        summary:
          "Operator API: `POST /ops/properties` put a property in another customer's group (that customer then listed it among its group's members and hid it with a pause); it is now 422 `group_id: in`. An unknown `customer_id` or `group_id` answered 500; a reference to a row that does not exist is now 422 `in` on its field. `POST /ops/customers/{id}/dashboard-token` for a customer that does not exist is 404.",
      },
      {
        kind: 'additive',
        summary:
          '`GET /permissions` entries carry `bucket`, the rate-limit bucket the operation spends (the name its `X-RateLimit-Bucket` header shows).',
      },
    ],
  },
  {
    date: '2026-11-27',
    title: 'Concurrent writes never share a database transaction',
    changes: [
      {
        kind: 'fix',
        summary:
          'Under a burst of concurrent writes to one service process (a storm of full syncs), the database driver could give two writes the same transaction: one of them answered 500 `errors.internal_error`, and what it had written before failing could be committed with the other. Each write now always runs in a transaction of its own. A push that answered 500 can be sent again: the calendar then holds what the push says.',
      },
    ],
  },
  {
    date: '2026-11-27',
    title: 'Webhooks: up to 16 requests at once per subscription, and no delivery held back a minute',
    changes: [
      {
        kind: 'breaking',
        summary:
          'Each service process now sends at most 16 webhook requests at once to one subscription (it was 8), of the 128 it sends at once in all; the pause after 3 unanswered attempts in a row is unchanged. A receiver that answers quickly gets a burst of deliveries sooner.',
        migration:
          'A receiver sized for 8 concurrent requests per service process should accept 16, or answer the ones it cannot take with a 5xx status at once: those are retried on the ladder and nothing is lost. A receiver that answers first and does its work afterwards keeps its requests short either way.',
      },
      {
        kind: 'fix',
        summary:
          "When a burst of deliveries for one subscription began while the previous burst's last deliveries were still being recorded, the deliveries of the new burst beyond the first 8 could wait about a minute for their first attempt; they now follow at once. The first deliveries of a large burst of events (thousands committed together) also leave sooner: about 5-10 ms after the commit instead of 30-50 ms.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'Every create retried after write_outcome_unknown answers what it made',
    changes: [
      {
        kind: 'fix',
        summary:
          "Creates other than bookings (subscriptions, auto-email templates, properties, room types, rate plans, payment and cancellation policies, promotions, extra services, special offers, content pages, guest feedback, property groups, gallery uploads and registrations, review replies, webhook redeliveries) keep their `Idempotency-Key` with their answer, in their own transaction, for 24 hours. A retry with the same key and body after a 503 `errors.qc.write_outcome_unknown` (the create had committed), or one the idempotency store no longer knew, created a second resource; it now answers the first call's status and body with `Idempotency-Replayed: true` and `Idempotency-Original-Timestamp`, and creates nothing. Another body under that key is 409 `errors.qc.idempotency_conflict`.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'A booking retried after write_outcome_unknown is found, not made again',
    changes: [
      {
        kind: 'fix',
        summary:
          '`POST /bookings` and `POST /b2b/bookings` keep their `Idempotency-Key` with the booking, in its transaction. A retry with the same key and body after a 503 `errors.qc.write_outcome_unknown` (the booking had committed) answered 201 with a second booking; it now answers 201 with the booking the first call made, with `Idempotency-Replayed: true` and `Idempotency-Original-Timestamp`, and creates nothing. Another body under that key is 409 `errors.qc.idempotency_conflict`, as for any used key.',
      },
      {
        kind: 'fix',
        summary:
          'A retry of a keyed request whose service process died while running it waited up to 15 s for the dead claim before running (answering nothing meanwhile); it now waits at most 5 s.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'An empty embedded data dir starts from a kept template',
    changes: [
      {
        kind: 'additive',
        summary:
          'Embedded PGlite: the first `npm start` of a checkout keeps a copy of the freshly migrated, empty database in `node_modules/.cache/qc-pglite-template` (no data, no secret; rebuilt when a migration or PGlite changes), and a later start on an empty data dir starts from it instead of running initdb and every migration: ready in about 1.5 s instead of 3 to 5. `QC_PGLITE_TEMPLATE_DIR` puts it elsewhere, `off` turns it off. `/healthz` also answers while the demo customer is seeded.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'A dry-run legacy updateAvailability says what it would have written',
    changes: [
      {
        kind: 'additive',
        summary:
          'Legacy PMS v1 facade: `availability/updateAvailability` answered as a dry run (`X-Qc-Dry-Run: 1`, or on a property still in `shadow` mode) runs the real calendar write, rolled back, and adds `X-Qc-Would: written=N, unchanged=N, skipped_out_of_window=N`: what the modern pushes report as `would`. The body stays the legacy bytes; other answers are unchanged.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title:
      'Per-address budgets per client behind the balancer; no credentials in webhook URLs; legacy upstreams checked on every forward',
    changes: [
      {
        kind: 'fix',
        summary:
          "Budgets kept per address (the `public` bucket, wrong token secrets, bad tokens) counted every client behind the service's balancer as one address, so one client's guesses could spend everyone's: each client now has its own, read from the balancer's `X-Forwarded-For`. An `X-Forwarded-For` or `Forwarded` header a client sends itself is still ignored.",
      },
      {
        kind: 'breaking',
        summary:
          'A subscription URL with credentials (`https://user:secret@host/hooks`) is refused on create and update: 422 `customer.subscription.messages.userinfo` on `url` (or `target_url`). Subscriptions already stored keep their URL and their deliveries.',
        migration:
          'Take the credentials out of the URL and authenticate deliveries by their `X-Qc-Signature-256` (README, "Webhooks", "Delivery"); a receiver that needs a secret in the path can use one there.',
      },
      {
        kind: 'fix',
        summary:
          "Legacy PMS v1 facade, keys in cutover mode `shadow`: the legacy service's address is checked before every forwarded request, not only when the operator set it; a destination that now resolves to a refused address (cloud metadata, or a private one the operator did not allow) is not called, and the request answers 502 `Legacy service unreachable` as when the legacy service is down.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: "One customer's hung webhook receiver no longer delays the others",
    changes: [
      {
        kind: 'fix',
        summary:
          'Webhook deliveries are sent at most 8 at a time per subscription in each service process, subscriptions in turn (responsive receivers first): a receiver that hangs or a long backlog no longer delays other subscriptions. After 3 attempts in a row without any answer (timeout, refused connection, TLS failure) a subscription pauses for 5 s, doubling up to 5 minutes, with one probe attempt after each pause; paused deliveries keep their attempts and are never dropped.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'A 503 says when the outcome of a write is unknown',
    changes: [
      {
        kind: 'additive',
        summary:
          "New error key `errors.qc.write_outcome_unknown` (503, with Retry-After) on writes: the database connection was lost after the write's COMMIT was sent, so it may or may not have been applied. Retry with the same `Idempotency-Key`. `errors.service_unavailable` keeps its meaning: the request was not applied. Before, both cases answered `errors.service_unavailable`, and some of those writes had been applied.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'The OpenAPI document goes compressed',
    changes: [
      {
        kind: 'additive',
        summary:
          "`GET /v1/qc/openapi.json`, `/v1/qc/openapi.yaml` and the API reference script are answered gzipped (`Content-Encoding: gzip`, about a tenth of the 1.5 MB) when the request's `Accept-Encoding` allows gzip, and as before otherwise; every answer says `Vary: Accept-Encoding`. HTTP clients that send `Accept-Encoding` already unpack it.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'Legacy dry runs for compatibility replays',
    changes: [
      {
        kind: 'additive',
        summary:
          "Legacy PMS v1 facade: a request with `X-Qc-Dry-Run: 1` is answered by the service as a dry run, whatever the key's cutover mode: the method runs for real and everything it wrote is rolled back (availability, revisions getBookings marks as sent, acks, room assignments, property data), a shadow key's request is not forwarded to the legacy service, and the answer carries `X-Qc-Dry-Run: 1`. Requests without the header are unchanged. The compatibility harness sends it on every replayed request.",
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'Bounded storage: what the service keeps, and for how long',
    changes: [
      {
        kind: 'breaking',
        summary:
          'Past calendar days are kept 90 days (the operator setting QC_RETENTION_CALENDAR_DAYS): a month of availability, rates and restrictions is removed once all of it is older. Reads of older dates answer as for days never pushed. Pushes accept yesterday on, so no write is affected.',
        migration: 'A partner that reads its calendar more than 90 days back keeps its own copy of those days.',
      },
      {
        kind: 'fix',
        summary:
          'Finished webhook deliveries and their attempts are kept 90 days, the redelivery window of spec 6.2, and then leave GET /deliveries; legacy revisions of stays that ended more than 90 days ago are reduced to the latest, which getBookings still answers.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title: "The partner's rough edges: one rule per convention",
    changes: [
      {
        kind: 'fix',
        summary:
          "A 415 `errors.qc.unsupported_media_type` says in `detail` which media types the endpoint reads, the same list as `accepted_content_types` (POST /gallery's said to send JSON while it reads only multipart).",
      },
      {
        kind: 'fix',
        summary:
          'The OpenAPI example of POST .../inventory/rates is a body the push accepts: one row with `rate`, one with `prices` by occupancy code (it showed both on one row and a literal `"^(.*)$"` key).',
      },
      {
        kind: 'breaking',
        summary:
          "POST /catalogue-sync defaults `clear_unlisted` to false: a sync naming one property leaves every other property's catalogue as it is. It defaulted to true and emptied them. Made inside v1 although it changes a default, because the old one destroyed data a partner never named; the new one fails safe (nothing is emptied that was not asked for).",
        migration:
          'A partner that sends its whole group and relies on unlisted properties being emptied sends `"clear_unlisted": true`.',
      },
      {
        kind: 'fix',
        summary:
          '`endpoint_scopes` narrows only the routes that need a scope: a token limited to `qc.room_types.*` reads GET /properties, GET /properties/{ext}, /permissions, /property-types, /changelog and /event-catalog (they answered 403 `errors.qc.endpoint_not_allowed`).',
      },
      {
        kind: 'additive',
        summary:
          'Booking buttons carry `legacy_id`, the `id` legacy getPropertySettings gives the same booking module, so ids stored from the legacy API map to the button `id`.',
      },
      {
        kind: 'fix',
        summary:
          'GET /amenities with a `property_type_id` that GET /property-types lacks answers 422 `property_type_id` `in`, as `type_id` on POST /properties does; it answered every amenity as if no filter was sent.',
      },
      {
        kind: 'fix',
        summary:
          'Payment policies (the seeded placeholder included), cancellation policies, promotions and special offers created without `name_tr` (or with `{}`) answer `name_tr: {"en-GB": <name>}`, as properties, room types and rate plans do; they answered `{}`. Existing records were filled the same way.',
      },
      {
        kind: 'fix',
        summary:
          'A `name_tr` key that is not a locale tag `xx-XX` is accepted again and stored as sent, as before 2026-11-22, and the answer names it in `warnings` (`{field: "name_tr.<key>", key: "errors.qc.unknown_field"}`). The 422 of 2026-11-22 broke v1 callers, which spec 9.1 does not allow within a major; callers that adapted to it (locale tags only) see no change.',
      },
      {
        kind: 'additive',
        summary:
          'A body field an operation does not declare is no longer dropped without a word: the write still answers as before and names each such field as `{field, key: "errors.qc.unknown_field"}`, in `data.warnings` on the inventory pushes (with `row` for a field of a row: a misspelled `min_stya` is reported, never silently lost) and in `warnings` beside `data` on every other write. An answer without undeclared fields is unchanged.',
      },
      {
        kind: 'fix',
        summary:
          "One paging rule on every list: `page` from 1 and `per_page` from 1 to 200, default 200 (the property list's page size); above 200 is 422 `max`. Lists defaulted to 50 (policies, extra services, promotions, booking buttons, subscriptions, deliveries, reviews, guest feedback) or 100 (gallery, content pages, auto-email templates), some capped at 100, and special offers, property types and the event catalogue took no paging. A reader that follows `meta` sees the same items; one that reads only the first page sees more. The bookings list keeps the interface's own size (default 50, clamped to 100) and takes `per_page` beside `limit`.",
      },
      {
        kind: 'additive',
        summary:
          'Property groups on the partner API (`qc.property_groups.*`, scope `groups.manage`, account-scoped credentials; 403 `errors.qc.account_scoped_credential_required` otherwise): GET /property-groups, GET /property-groups/{id}, POST /property-groups `{name, property_ids?}`, PATCH /property-groups/{id} `{name?, paused?, property_ids?}`. Pausing a group takes its properties out of every allow-list on the next request. The scope guarded nothing before: groups existed only under /ops.',
      },
      {
        kind: 'fix',
        summary:
          'Legacy facade sunset: without `QC_LEGACY_MIGRATION_GUIDE_URL` the affected answers carry `Sunset` alone, and a retired method\'s 410 message ends after its date. The `Link: <...>; rel="sunset"` pointed by default at the modern API reference, which is no migration guide for a PMS; the operator sets the URL of the guide it publishes.',
      },
      {
        kind: 'fix',
        summary:
          'One merge rule on every PATCH: a nested object merges field by field with the stored one. PATCH of an extra service with part of `client_select_dates_settings` (e.g. only `min_days`) keeps the stored `type` and `max_days` (it answered 422 `max_days` `required`); a special offer\'s `sfp` and a guest feedback\'s `scores` keep the fields a PATCH omits (they were replaced whole). Extra services created without `name_tr` answer `{"en-GB": <name>}` like every other named resource.',
      },
      {
        kind: 'fix',
        summary:
          'Every answer under /v1/qc carries `X-Qc-Request-Id` and the four `X-RateLimit-*` headers: GET /openapi.json, /openapi.yaml and /docs answered without them. They and unknown paths (404) spend the bucket `public` (60 a minute, 5000 a day per address); unknown paths spent the same budget under the undocumented name `unmatched`, and the README said they carried no rate-limit headers.',
      },
    ],
  },
  {
    date: '2026-11-26',
    title: 'One customer never slows or locks out another',
    changes: [
      {
        kind: 'fix',
        summary:
          "POST /oauth/token: wrong secrets for a `client_id` no longer spend that client's token budget (anyone who saw a client_id could lock it out of tokens). They spend their address's budget and a failure budget of the client (100 a minute, 10 000 a day); the right secret is counted only against the client's own budget and gets its token from any address.",
      },
      {
        kind: 'breaking',
        summary:
          "Gallery uploads: images over 50 megapixels are refused (422 `errors.qc.gallery_image_too_large`) besides the 12000-pixel side; bytes after the image itself (an appended HTML page) are dropped, so `byte_size` and `sha256` describe the stored image; `file_name` is the uploaded name made safe (last path segment, odd characters as `_`); a registered legacy file with bytes after its image is 422 `errors.qc.gallery_not_an_image`. Media answers carry `Content-Disposition: inline` and `Content-Security-Policy: default-src 'none'; sandbox`.",
        migration:
          'Scale images to at most 50 megapixels before upload; read `file_name`, `byte_size` and `sha256` from the answer rather than from the file you sent.',
      },
      {
        kind: 'fix',
        summary:
          'Bearer JWTs are refused (401) when they claim a lifetime (`exp - iat`) over 3600 s, carry no `iat`, an `iat` more than 60 s ahead, or a `jku`, `jwk`, `x5u` or `x5c` header. Tokens from POST /oauth/token are unaffected.',
      },
      {
        kind: 'breaking',
        summary:
          '`guest.email` (POST /bookings, POST /b2b/bookings, the inbound channel webhook) must be an address `local@domain` without spaces: `x` or an empty string is 422 with `guest.email: [customer.<resource>.messages.format]`.',
        migration:
          "Leave `email` out when the guest's address is unknown instead of sending an empty string or a placeholder.",
      },
      {
        kind: 'fix',
        summary:
          'The inbound channel webhook refuses a NUL or a lone UTF-16 surrogate (such as `\\ud800`) in any string with 422 `errors.qc.webhook.payload_invalid` naming the field (`invalid_characters`), as documented; a lone surrogate in the guest e-mail was stored as U+FFFD and answered 200.',
      },
      {
        kind: 'additive',
        summary:
          "Every answer carries `X-Content-Type-Options: nosniff` (the modern API, the legacy facade, the operator API, media). Stored markup (content pages, replies, templates, a template preview's `body_html`) is only ever returned inside JSON: escape or sanitise it where you display it.",
      },
      {
        kind: 'fix',
        summary:
          'POST /gallery/register with `legacy_file_id` of dots alone (`.`, `..`) answers 422 `errors.validation_error` (`customer.gallery_image.messages.format`); it answered 500.',
      },
      {
        kind: 'fix',
        summary:
          'POST /inbound/webhooks is bounded like every other route before its body is read: over 64 KiB answers 413 `errors.qc.payload_too_large`, JSON nested deeper than 32 levels 422 `errors.validation_error` with `errors.body = ["customer.inbound_webhook.messages.too_deep"]`. The operator API and the dashboard follow the same depth rule.',
      },
    ],
  },
  {
    date: '2026-11-22',
    title: 'One way to do each thing; readable errors and offline docs',
    changes: [
      {
        kind: 'additive',
        summary:
          'Legacy PMS v1 facade: each api_key has a cutover mode. In `shadow` the legacy service answers the PMS, unchanged (status, headers, body), while the service compares its own answer with it; in `live` the service answers. When the legacy service cannot be reached a shadowed call answers 502 (504 when it is too slow) with `{"message":"Throw Error Exception\\nMsg: Legacy service unreachable\\nCode: 0"}` and nothing is written; retry later.',
      },
      {
        kind: 'additive',
        summary:
          'Legacy PMS v1 facade: once a shutdown date is set for a method (never before 2027-08-01, and at least 6 months ahead), its answers carry `Sunset: <HTTP-date>` (RFC 8594) and `Link: <migration guide>; rel="sunset"`; the rest of the answer is unchanged. A method is switched off (410) at that date only when every PMS using it has had no difference in shadow mode for 90 consecutive days of traffic.',
      },
      {
        kind: 'additive',
        summary:
          'Inventory pushes and the per-plan rate write to a shadow property answer `would: {written, unchanged, skipped_out_of_window}`: what the same push would write once the property is live. `dry` stays true and the spec counters stay zero.',
      },
      {
        kind: 'fix',
        summary:
          'An idempotent replay of a 200 answer (PATCH property, PUT catalogue, revision ack, booking cancel, rate-plan PATCH, per-plan rate write, subscription PATCH) is answered 200 again, with the first headers and body; it was answered 500.',
      },
      {
        kind: 'fix',
        summary:
          'POST /oauth/token with HTTP Basic credentials that are not valid percent-encoding answers 401 `errors.qc.invalid_client`; it answered 500.',
      },
      {
        kind: 'fix',
        summary:
          'Legacy getBookingOffers prices with the same engine as GET .../rate_plans/{id}/rates: the same rounding, derived prices clamped at 0, chained derived codes.',
      },
      {
        kind: 'fix',
        summary: 'GET /permissions sorts endpoints and resources by code point, whatever the server collation.',
      },
      {
        kind: 'additive',
        summary:
          'Every error body carries `detail` beside the unchanged key: a sentence in English saying what was wrong and how to fix it (for a 422 validation error, naming the first failing field). Informative only: keep matching on `message`.',
      },
      {
        kind: 'additive',
        summary:
          'A 401 carries `WWW-Authenticate: Bearer` (with `error="invalid_token"` when a token was sent and refused); a 403 `errors.qc.insufficient_scope` carries `WWW-Authenticate: Bearer error="insufficient_scope", scope="<the scope needed>"` (RFC 6750).',
      },
      {
        kind: 'additive',
        summary:
          'Errors of POST /oauth/token also carry the RFC 6749 `error` code (`invalid_client`, `invalid_scope`, `invalid_request`, `unsupported_grant_type`) for OAuth client libraries.',
      },
      {
        kind: 'additive',
        summary:
          'New key `errors.qc.unsupported_media_type` (415, with `accepted_content_types`): a body sent with no or an unread media type, or JSON sent as a form (`curl -d` without `-H "Content-Type: application/json"`). It was a 422 naming the whole JSON text as an unknown field.',
      },
      {
        kind: 'additive',
        summary:
          'The OpenAPI document lists every error an operation can answer (keys per status, with examples), the response headers (rate limit, request id, support ticket, idempotency), the Idempotency-Key parameter of writes, `servers`, and an OAuth 2 client-credentials security scheme whose token URL tools can use.',
      },
      {
        kind: 'additive',
        summary:
          '`npm run webhook:listen` starts a local receiver that subscribes itself (or verifies the deliveries of a subscription you made with `--secret`), checks every delivery (signature, timestamp, duplicates) and prints it; the demo output says how. A webhook URL refused as `https_required` or `private_address` names the development switch (`QC_WEBHOOK_ALLOW_PRIVATE=1`) in its `detail`. `npm start` prints its progress while it migrates and seeds.',
      },
      {
        kind: 'additive',
        summary:
          'A typed TypeScript client in the repository (`client/`: openapi-fetch over types generated from the OpenAPI document) with a first-hour example. In the OpenAPI document, numeric answer fields are typed as numbers (they were number-or-string).',
      },
      {
        kind: 'additive',
        summary:
          'Operators: GET /metrics (operator token) serves Prometheus metrics: requests and latency per route and status, actor queue depth and turn time, calendar day-rows written, outbox lag, webhook deliveries, idempotent replays, legacy requests and shadow comparisons. Legacy requests are logged with a request id like modern ones; a 404 for a path no route serves is no longer stored as an incident.',
      },
      {
        kind: 'additive',
        summary:
          'GET /v1/qc/changelog serves this changelog as JSON. The API reference at /v1/qc/docs works without network access beyond this service.',
      },
      {
        kind: 'additive',
        summary:
          'GET, POST and PATCH of one rate plan answer `rate_plans[]`: the pair entries exactly as GET /properties/{ext}/rate_plans lists them for that plan, each with its `occupancies[]`, so one parser reads single and list answers. `mappings[]` (the same array) is deprecated and stays throughout v1.',
      },
      {
        kind: 'fix',
        summary:
          'GET /properties/{ext}/availability answers every date of the range for every room type; a date nothing was pushed for reads 0 free rooms. It left such dates out.',
      },
      {
        kind: 'fix',
        summary:
          'Documentation: the webhook signing key is the literal `whsec_...` secret string, prefix included, as UTF-8 bytes (README webhook section, POST /subscriptions and rotate-secret descriptions). Nothing changed in how deliveries are signed.',
      },
      {
        kind: 'additive',
        summary:
          'New route GET /properties/{ext}/catalogue (`qc.catalogue.show`, scope properties.manage): reads the catalogue last pushed by PUT or catalogue-sync; empty arrays and `updated_at: null` before any push.',
      },
      {
        kind: 'additive',
        summary:
          'OAuth client secret rotation: POST /api/v1/pem-systems/qc/clients/{client_id}/rotate-secret (dashboard session) and POST /ops/clients/{client_id}/rotate-secret (operator) answer a new `client_secret` once; the old secret still gets tokens for 24 hours (`previous_secret_expires_at`).',
      },
      {
        kind: 'additive',
        summary:
          'Personal API tokens can be listed (GET /api/v1/pem-systems/qc/api-tokens, never showing the token) and revoked (DELETE /api/v1/pem-systems/qc/api-tokens/{id}) with the dashboard session.',
      },
      {
        kind: 'additive',
        summary:
          "Legacy `ext_room_id` links can be set: GET and PUT /api/v1/pem-systems/qc/properties/{ext}/legacy-room-links (dashboard) and /ops/properties/{id}/legacy-room-links (operator) link the room ids a PMS declared in postExternalPropertyData to the property's room types; before, no API could create the link legacy updateAvailability and getAvailability resolve `ext_room_id` through.",
      },
      {
        kind: 'breaking',
        summary:
          '`name_tr` keys are checked the same way on every body that takes one: a key that is not a locale tag `xx-XX` is 422 `name_tr.<key>` `unknown_field`. Properties, room types and configuration entities accepted any key. Withdrawn on 2026-11-26 (a breaking change has no place inside v1, spec 9.1): such a key is accepted again and named in `warnings`.',
        migration:
          'Send locale tags such as `en-GB` or `pt-PT` as `name_tr` keys; drop other keys. Bodies that already used locale tags are unaffected.',
      },
      {
        kind: 'fix',
        summary:
          'A property, room type or rate plan created without `name_tr` (or with `{}`) answers `name_tr: {"en-GB": <name>}` instead of `{}`; existing records were filled the same way.',
      },
      {
        kind: 'additive',
        summary: 'GET /property-types carries `meta` like every other list (the whole dictionary in one page).',
      },
      {
        kind: 'fix',
        summary:
          'GET /booking_revisions/feed reads `since` and `limit` by the bookings list rule: a malformed value is dropped to its default (`since` 0, which re-delivers every unacked revision and so never skips one; `limit` 100) instead of a 422. A `limit` of 0 now reads as 100 (it read as 1).',
      },
      {
        kind: 'additive',
        summary:
          "Gallery (`qc.gallery.*`): POST /gallery (multipart, checked by content), POST /gallery/register, GET /gallery, GET and DELETE /gallery/{id} (409 `errors.qc.gallery_image_in_use` with `usages[]`, `?force=1`), PUT /properties/{ext}/images and .../room_types/{id}/images. Images are served at public URLs without authentication, and legacy getRoomsDetails lists a room's gallery images in `images` after its own.",
      },
      {
        kind: 'additive',
        summary:
          'Content pages (`qc.content_pages.*`), the guest guide (`qc.guest_guide.*`, GET and PUT /properties/{ext}/guest_guide) and guest feedback (`qc.guest_feedback.*`) under /properties/{ext}; deleting a page strips its guest-guide references.',
      },
      {
        kind: 'additive',
        summary:
          'Reviews (`qc.reviews.*`): list, read one, reply once (422 `errors.qc.review_already_replied`, `errors.qc.review_replies_not_supported`); the reply is sent to the channel in the background with a visible `reply.delivery` status. Reviews arrive through the inbound channel webhook (`{"kind": "review", ...}`) and POST /ops/reviews.',
      },
      {
        kind: 'additive',
        summary:
          'Auto-email templates (`qc.auto_email_templates.*`): CRUD, GET /auto_email_templates/events and GET .../{id}/preview; `property_ids` outside the grant are 422 `errors.qc.property_id_not_granted_to_client`, unknown placeholders 422 `unknown_placeholder`.',
      },
      {
        kind: 'additive',
        summary:
          'Amenities (`qc.amenities.*`): GET /amenities, the OpenTravel HAC and RMA codes grouped in the request locale, and GET/PUT of property and room type amenities.',
      },
      {
        kind: 'additive',
        summary:
          'Analytics (`qc.analytics.*`, scope `analytics.read`): GET /properties/{ext}/analytics/{overview,traffic,funnel,campaigns,bookings,pace}; an analytics upstream that fails is 502 `errors.qc.analytics_upstream_error`.',
      },
    ],
  },
  {
    date: '2026-10-09',
    title: 'Bookings list and revision ack fixes',
    changes: [
      {
        kind: 'fix',
        summary:
          'Bookings list filters: malformed values are dropped, not rejected; `booking_status` takes a single value or `booking_status[]` repeated; `total` counts the rows under the active filters.',
      },
      {
        kind: 'fix',
        summary:
          'POST /booking_revisions/{id}/ack is idempotent per consumer and acknowledges only that revision; other consumers are unaffected.',
      },
    ],
  },
  {
    date: '2026-08-27',
    title: 'Behaviour changes recorded in the interface specification',
    changes: [
      {
        kind: 'breaking',
        summary: 'Derived (child) rate plans refuse price writes (`errors.qc.price_on_derived_rate`).',
        migration:
          'Send prices to the parent plan (the warning names it); send a child plan only its restrictions, in rows of their own.',
      },
      {
        kind: 'breaking',
        summary:
          '`errors.qc.policies_missing` is retired: rate plan creation seeds one placeholder payment and cancellation policy when the property has none.',
        migration:
          'Stop handling `errors.qc.policies_missing`; read or edit the seeded placeholder policies, or pass explicit policy ids.',
      },
      {
        kind: 'breaking',
        summary:
          "The per-plan rate write validates occupancy codes against the pair's vocabulary (`unknown_acm_code` row errors with `allowed_codes`).",
        migration: "Read GET .../rate_plans/{id} for each pair's occupancy codes and send only manual codes.",
      },
      { kind: 'additive', summary: '`sell_type` is accepted on rate plan creation.' },
      {
        kind: 'additive',
        summary: 'Endpoint-level token narrowing (`endpoint_scopes`) and account-scoped tokens.',
      },
      { kind: 'additive', summary: 'Age-groups endpoints.' },
      { kind: 'additive', summary: 'Analytics reports (scope `analytics.read`).' },
      { kind: 'additive', summary: 'A partner code is accepted wherever an external id is.' },
    ],
  },
];
