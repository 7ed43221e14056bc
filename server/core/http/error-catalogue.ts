/**
 * The closed catalogue of error keys of the modern API: each key once, with its HTTP status and a sentence
 * a person can act on. Domain code raises a key (`new ApiError('errors.qc.partner_code_taken')`), never an
 * HTTP status, so a typo in a key fails to compile and a key cannot answer two statuses.
 *
 * Keys never change meaning (clients match on them); new keys may appear. Push warnings (answered inside a
 * 202) and per-row codes of the per-plan rate write are listed here too, so the whole vocabulary a partner
 * can see is in one file.
 */
export const errorCatalogue = {
  // General and authentication
  'errors.unauthorized': {
    status: 401,
    detail: 'The bearer token is missing, expired or malformed: get a new token and retry.',
  },
  'errors.not_found': {
    status: 404,
    detail: 'No such resource, or it is outside the properties this token may act on.',
  },
  'errors.validation_error': {
    status: 422,
    detail: 'The request failed validation: the errors map names each field and the rule it broke.',
  },
  'errors.internal_error': {
    status: 500,
    detail: 'Something failed on our side. Quote the X-Qc-Support-Ticket header when you contact support.',
  },
  'errors.service_unavailable': {
    status: 503,
    detail: 'A backing service is unavailable. Retry after the Retry-After delay; the request was not applied.',
  },
  'errors.qc.write_outcome_unknown': {
    status: 503,
    detail:
      'The database connection was lost after this write was sent to be committed: it may or may not have been ' +
      'applied. Retry after the Retry-After delay with the same Idempotency-Key and body: a retried create answers ' +
      'what the first call made, if it was applied (credentials excepted: see the partner guide, Idempotency-Key).',
  },
  'errors.qc.unsupported_media_type': {
    status: 415,
    detail: 'This endpoint does not read a body of this media type: send it as one of `accepted_content_types`.',
  },
  'errors.qc.payload_too_large': {
    status: 413,
    detail: "The request body exceeds this route's limit (limit_bytes): split it into smaller requests.",
  },
  'errors.qc.analytics_upstream_error': {
    status: 502,
    detail: 'The analytics service is unreachable or failed. Retry later.',
  },
  'errors.qc.invalid_client': { status: 401, detail: 'Unknown client_id, revoked client, or wrong client_secret.' },
  'errors.qc.invalid_scope': { status: 422, detail: "A requested scope is outside the client's allowed scopes." },
  'errors.qc.insufficient_scope': {
    status: 403,
    detail: "The token lacks this endpoint's scope: request a token with it (see GET /permissions).",
  },
  'errors.qc.endpoint_not_allowed': {
    status: 403,
    detail: "This route is not on the token's endpoint allow-list (endpoint_scopes).",
  },
  'errors.qc.rate_limit_exceeded': {
    status: 429,
    detail: 'The rate-limit budget of this bucket is spent: wait Retry-After seconds.',
  },
  'errors.qc.idempotency_conflict': {
    status: 409,
    detail: 'This Idempotency-Key was used with a different body: use a new key for a new operation.',
  },
  'errors.qc.idempotency_in_flight': {
    status: 409,
    detail: 'A request with this Idempotency-Key is still running: retry the same request shortly.',
  },

  // Inventory writes (rejections of the whole batch)
  'errors.qc.unknown_room_type': {
    status: 422,
    detail: 'A room_type_id is not mapped on this property (see GET room_types).',
  },
  'errors.qc.unknown_room_or_rate': {
    status: 422,
    detail: 'A (room_type_id, rate_plan_id) pair does not exist on this property (see GET rate_plans).',
  },
  'errors.qc.batch_too_large': {
    status: 422,
    detail: 'At most 1000 rows and 20000 day-rows after expansion per request: split the batch.',
  },
  'errors.qc.rate_or_prices_required': { status: 422, detail: 'Each price row carries exactly one of rate or prices.' },
  'errors.qc.restriction_payload_empty': {
    status: 422,
    detail:
      'A restriction row needs at least one of min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure.',
  },
  'errors.qc.multi_property_batch_not_allowed': {
    status: 422,
    detail: 'One request pushes to exactly one property: split the batch per property.',
  },
  'errors.qc.occupancy_pricing_not_supported': {
    status: 422,
    detail: 'Per-occupancy prices were sent to a pair that is not per_person or per_occupancy.',
  },

  // Operator API: the legacy cutover (spec 9.4)
  'errors.qc.legacy_upstream_missing': {
    status: 422,
    detail:
      'Shadow mode forwards to the legacy service, and none is configured: give upstream_url or set QC_LEGACY_UPSTREAM_URL.',
  },
  'errors.qc.cutover_not_ready': {
    status: 409,
    detail:
      'This shadow key has not earned the flip to live: its zero streak (zero_streak_days) is short of required_streak_days, and after the flip a difference can no longer be seen. Read its shadow scores (last_difference, has_comparisons) and fix the port or agree an ignore rule; send "force": true to flip it anyway.',
  },
  'errors.qc.sunset_date_refused': {
    status: 422,
    detail:
      'The legacy facade is not shut down before 2027-08-01, and the Sunset header must be sent at least 6 months ahead: choose a later date (reason says which rule).',
  },

  // Catalogue, structure, configuration
  'errors.qc.room_created_map_failed': { status: 422, detail: 'The room was created but mapping it failed.' },
  'errors.qc.rate_plan_created_map_failed': { status: 422, detail: 'The rate plan was created but mapping it failed.' },
  'errors.qc.partner_code_taken': {
    status: 409,
    detail: "This partner_code is already used in the customer's group of properties.",
  },
  'errors.qc.property_creation_not_allowed': {
    status: 403,
    detail: 'Only a partner that owns properties may create them.',
  },
  'errors.qc.enrolment_failed_orphan_property': {
    status: 500,
    detail: 'The property was created but enrolling it failed: retry with the same Idempotency-Key.',
  },
  'errors.qc.occupancies_require_single_room': {
    status: 422,
    detail: 'Explicit occupancies need exactly one room type in room_type_ids.',
  },
  'errors.qc.parent_rate_plan_not_found': {
    status: 422,
    detail: 'parent_rate_plan_id resolves to no mapped rate plan.',
  },
  'errors.qc.parent_rate_plan_not_on_property': {
    status: 422,
    detail: 'The parent rate plan belongs to a different property.',
  },
  'errors.qc.derivation_requires_parent': { status: 422, detail: 'A derivation block needs parent_rate_plan_id.' },
  'errors.qc.payment_policy_in_use': {
    status: 409,
    detail:
      'A rate plan still references this payment policy (see rate_plan_ids): give each another payment_policy_id with PATCH rate_plans/{id} first.',
  },
  'errors.qc.cancellation_policy_in_use': {
    status: 409,
    detail:
      'A rate plan still references this cancellation policy (see rate_plan_ids): give each another cancellation_policy_id with PATCH rate_plans/{id} first.',
  },
  'errors.qc.account_scoped_credential_required': {
    status: 403,
    detail: 'This operation changes the whole account: use an account-scoped credential (account_scoped: true).',
  },
  'errors.qc.property_id_not_granted_to_client': {
    status: 422,
    detail: 'A property id is outside the properties granted to this credential.',
  },
  'errors.qc.gallery_image_in_use': {
    status: 409,
    detail: 'The image is in use (see usages); delete with ?force=1 to sever every usage.',
  },
  'errors.qc.gallery_upload_failed': {
    status: 500,
    detail: 'Storage refused the upload; nothing was recorded. Retry later.',
  },
  'errors.qc.gallery_not_an_image': {
    status: 422,
    detail:
      'An uploaded file is not a JPEG, PNG, GIF or WebP image (its content was checked, not its name); `file` names it. Nothing was stored.',
  },
  'errors.qc.gallery_image_too_large': {
    status: 422,
    detail:
      'An uploaded image is over 10 MiB or over 12000 pixels on a side; `file` names it. Scale it down; nothing was stored.',
  },
  'errors.qc.gallery_too_many_files': {
    status: 422,
    detail: 'At most 20 images per upload request: split the upload.',
  },
  'errors.qc.gallery_legacy_file_not_found': {
    status: 422,
    detail: "legacy_file_id names no file in the account's legacy storage.",
  },
  'errors.qc.gallery_legacy_file_registered': {
    status: 409,
    detail: 'This legacy file is already in the gallery (see `image_id`).',
  },
  'errors.qc.gallery_image_not_found': {
    status: 422,
    detail: "An image id is not an image of the account's gallery (see GET /gallery).",
  },
  'errors.qc.content_page_slug_taken': {
    status: 409,
    detail: 'Another content page of this property has this slug.',
  },
  'errors.qc.content_page_not_found': {
    status: 422,
    detail: 'A guest-guide item references a content page that is not a page of this property.',
  },
  'errors.qc.guest_feedback_unknown_booking': {
    status: 422,
    detail: 'booking_id names no booking of this property (use the external_booking_id).',
  },
  'errors.qc.guest_feedback_exists': {
    status: 409,
    detail: 'This booking already has guest feedback (see `feedback_id`): update it instead.',
  },
  'errors.qc.review_already_replied': {
    status: 422,
    detail: 'This review already has its one reply; a channel takes no second reply.',
  },
  'errors.qc.review_replies_not_supported': {
    status: 422,
    detail: "The review's channel takes no replies from the hotel through this connection.",
  },
  'errors.qc.review_unknown_channel': {
    status: 422,
    detail: 'The channel code is not a channel that sends reviews.',
  },
  'errors.qc.sfp_min_gt_max_nights': { status: 422, detail: 'sfp.min_nights is greater than sfp.max_nights.' },
  'errors.qc.age_group_range_inverted': {
    status: 422,
    detail: 'An age group has from_age greater than to_age; nothing was written.',
  },
  'errors.qc.booking_create_failed': {
    status: 422,
    detail: 'The booking was refused (see reason); the refusal is not cached under the Idempotency-Key.',
  },
  'errors.qc.booking_modify_failed': { status: 422, detail: 'The booking change was refused (see reason).' },
  'errors.qc.booking_not_confirmable': { status: 409, detail: 'Only a tentative booking can be confirmed.' },
  'errors.qc.subscription.unknown_property': {
    status: 422,
    detail: 'A subscription property is outside the properties this token may act on.',
  },
  'errors.qc.subscription.disabled': { status: 409, detail: 'The subscription is disabled: enable it first.' },
  'errors.qc.deliveries.unknown_status': {
    status: 422,
    detail: 'Delivery status filter must be one of pending, delivering, delivered, failed, dead.',
  },
  'errors.qc.deliveries.redelivery_window_passed': {
    status: 422,
    detail: 'Deliveries older than 90 days cannot be redelivered.',
  },
  'errors.qc.webhook.missing_channel': { status: 400, detail: 'The inbound webhook names no channel code.' },
  'errors.qc.webhook.unknown_channel': { status: 400, detail: 'The inbound webhook names an unknown channel code.' },
  'errors.qc.webhook.missing_property': { status: 422, detail: 'The inbound payload lacks external_property_id.' },
  'errors.qc.webhook.payload_invalid': { status: 422, detail: 'The inbound payload is malformed.' },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export function statusOf(key: ErrorKey): number {
  return errorCatalogue[key].status;
}

/**
 * Row-level problems of an inventory push: the batch is still written (202) and each problem is reported in
 * `warnings[]` with its key.
 */
export const pushWarningCatalogue = {
  'errors.qc.unknown_acm_code': "A prices key is not in the pair's occupancy vocabulary; that price was not written.",
  'errors.qc.acm_not_priceable': 'The occupancy code is derived, fee or cost_free: its price is computed, not written.',
  'errors.qc.prices_belong_to_parent':
    'Prices were sent to a child plan: send them to the parent plan named in the warning.',
  'errors.qc.price_on_derived_rate':
    'Prices were sent to a child (derived) plan whose parent is not mapped; nothing was priced.',
  'errors.qc.prices_map_required': 'A scalar rate was sent to a pair that is not per_room: send a prices map.',
  'errors.qc.unknown_field':
    'The body holds a field the push does not declare (`field` names it): it was ignored; check its spelling.',
} as const;

export type PushWarningKey = keyof typeof pushWarningCatalogue;

/** Codes of `errors[]` entries in the per-plan rate write answer (`POST .../rate_plans/{id}/rates`). */
export const rateRowErrorCatalogue = {
  malformed_row: 'The entry is not an object.',
  bad_date: 'date is missing or not YYYY-MM-DD.',
  bad_acm_key: 'An occupancy key is empty or not a string.',
  unknown_acm_code: "An occupancy code is not in the pair's vocabulary (see allowed_codes); the row was not counted.",
  bad_restriction_key: 'A restriction key is not one of the accepted restriction fields.',
  unknown_room_type: 'room_type_id is not a room type of this rate plan.',
  write_failed: 'The write failed (see message).',
  price_on_derived_rate: 'Prices were sent to a child (derived) plan; send restrictions in a separate row.',
} as const;

export type RateRowErrorCode = keyof typeof rateRowErrorCatalogue;
