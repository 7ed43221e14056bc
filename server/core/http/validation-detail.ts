import type { FieldErrors } from './api-error.ts';

/**
 * The `detail` sentence of a 422 validation error: it names the first failing field and its rule, so a
 * person reading one line of a log knows what to fix; the `errors` map stays the complete answer.
 */
export function validationDetail(errors: FieldErrors): string {
  const fields = Object.keys(errors);
  const first = fields[0];
  if (first === undefined) return 'The request failed validation.';
  const rule = errors[first]?.[0]?.split('.').pop() ?? 'invalid';
  const others = fields.length - 1;
  const rest =
    others === 0 ? '' : ` ${others} more field${others === 1 ? '' : 's'} failed too: the errors map lists each.`;
  const sentence = FIELD_RULE_SENTENCES[`${first}.${rule}`] ?? RULE_SENTENCES[rule] ?? `breaks the rule "${rule}"`;
  return `${first}: ${sentence}.${rest}`;
}

/**
 * A rule whose remedy depends on the field: the legacy upstream's private address is allowed per key, and
 * `request` is named only by the net under the input checks (server/core/http/render-error.ts), for a value the
 * database refused that no check of the field caught.
 */
const FIELD_RULE_SENTENCES: Record<string, string> = {
  'upstream_url.private_address':
    'resolves to a private or loopback address (send "allow_private_upstream": true beside it, or start the service with QC_LEGACY_UPSTREAM_ALLOW_PRIVATE=1)',
  'request.invalid':
    'carries a value the database cannot store (out of range, or not readable as its type): check the values sent, and quote the X-Qc-Support-Ticket header to support if they look right',
};

/** The common rules in words; any other rule is named as it appears in the errors map. */
const RULE_SENTENCES: Record<string, string> = {
  required: 'is required and was missing',
  unknown_field: 'is not a field of this request: remove it',
  string: 'must be a string',
  integer: 'must be an integer',
  number: 'must be a number',
  boolean: 'must be true or false',
  array: 'must be an array',
  object: 'must be an object',
  format: 'has the wrong format',
  min_length: 'is too short',
  max_length: 'is too long',
  min: 'is below the minimum',
  max: 'is above the maximum',
  min_items: 'has too few items',
  max_items: 'has too many items',
  unique: 'lists an item more than once',
  null: 'must be null',
  invalid: 'is not a value this field takes',
  invalid_characters: 'holds a character that cannot be stored (NUL, or half of a surrogate pair): remove it',
  too_deep: 'nests JSON too deeply: flatten it',
  differs_from_kind: 'names another kind of room than `kind`: send one of them, or two that agree',
  unknown_endpoint:
    'names no route: use route names of GET /v1/qc/permissions, or `qc.<resource>.*` for all of one resource',
  in: 'is not one of the accepted values',
  malformed: 'is not valid JSON',
  unsupported_grant_type: 'must be client_credentials',
  https_required:
    'must be an https:// URL (for development, a service started with QC_WEBHOOK_ALLOW_PRIVATE=1 delivers to http:// and private addresses)',
  private_address:
    'resolves to a private or loopback address (for development, start the service with QC_WEBHOOK_ALLOW_PRIVATE=1)',
  unresolvable_host: 'names a host that does not resolve',
  userinfo: 'must not carry credentials (user:password@ before the host)',
};
