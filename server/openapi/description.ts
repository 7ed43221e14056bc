/** The document-level description of the partner API (OpenAPI info.description): one rule per convention. */
export const DESCRIPTION = `Partner API of the Hotel Connectivity Service.

All endpoints except \`POST /v1/qc/oauth/token\`, \`GET /v1/qc/.well-known/jwks.json\`, \`GET /v1/qc/changelog\`,
and this document need \`Authorization: Bearer <token>\` (an OAuth2 client-credentials JWT or a \`qc_\` personal
token). A token narrowed by \`endpoint_scopes\` is narrowed on the routes that need a scope; the routes that need
none (\`GET /properties\`, \`/permissions\`, ...) answer every token.
Success bodies are \`{status: "ok", message, data}\`; errors are \`{status: "error", message: "errors.<...>",
detail}\` with the HTTP status, and 422 validation errors carry an \`errors\` map keyed by field path. Single
resources are returned as \`data\` itself; collections as \`data.<plural>[]\` plus \`data.meta\`; every list takes
\`page\` (from 1) and \`per_page\` (1 to 200, default 200), except the bookings list (\`per_page\` or \`limit\`,
default 50, clamped to 100). Every response carries \`X-Qc-Request-Id\`; every error response carries
\`X-Qc-Support-Ticket\`. An unknown route answers 404 \`errors.not_found\`.

Bodies: a 415 \`errors.qc.unsupported_media_type\` names the media types the endpoint reads
(\`accepted_content_types\`, and \`detail\`). PATCH changes only the fields sent; a nested object merges field by
field with the stored one, arrays and maps replace whole. A body field an operation does not declare is ignored and
named as \`{field, key: "errors.qc.unknown_field"}\`: in \`data.warnings\` on the inventory pushes, in \`warnings\`
beside \`data\` on every other write (a \`name_tr\` key that is not a locale tag is stored as sent and named the same
way). A created resource without \`name_tr\` answers \`{"en-GB": <name>}\`. An id of the service's dictionaries
(\`GET /property-types\`, amenity codes) that the dictionary lacks is 422 \`in\`, in a body and in a query filter.

Rate limits: every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`
(Unix seconds of the next wall-clock minute) and \`X-RateLimit-Bucket\` (\`reads\`, \`config-writes\`,
\`inventory-writes\`, \`booking-actions\`, \`token\`, and \`public\` for this document, the docs page and unknown
paths, per address); over budget is 429 \`errors.qc.rate_limit_exceeded\`
with \`Retry-After\`. Idempotency: every write accepts \`Idempotency-Key\` (up to 128 characters); the same key
and byte-identical body within 24 hours replays the first answer with \`Idempotency-Replayed: true\` and
\`Idempotency-Original-Timestamp\`; a different body is 409 \`errors.qc.idempotency_conflict\`.`;
