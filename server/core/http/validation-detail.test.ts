import { describe, expect, it } from 'bun:test';
import { validationDetail } from './validation-detail.ts';

/**
 * A 422's `detail` names its first field and says the rule in words. The class-22 net's answer read
 * `request: breaks the rule "invalid".`, and so did every union a value matched no member of: the rules the
 * pipeline itself names (server/core/http/validation.ts, read-body.ts, render-error.ts) each have a sentence.
 */
const PIPELINE_RULES = [
  'required',
  'string',
  'min_length',
  'max_length',
  'format',
  'integer',
  'number',
  'min',
  'max',
  'boolean',
  'array',
  'min_items',
  'max_items',
  'unique',
  'object',
  'unknown_field',
  'invalid',
  'in',
  'null',
  'malformed',
  'too_deep',
  'invalid_characters',
];

const detailOf = (field: string, rule: string) => validationDetail({ [field]: [`customer.thing.messages.${rule}`] });

describe('the detail of a 422', () => {
  it('says what the class-22 net refused in words, and where to look', () => {
    expect(detailOf('request', 'invalid')).toBe(
      'request: carries a value the database cannot store (out of range, or not readable as its type): check the values sent, and quote the X-Qc-Support-Ticket header to support if they look right.',
    );
  });

  it('says `invalid` on a field in words', () => {
    expect(detailOf('event', 'invalid')).toBe('event: is not a value this field takes.');
  });

  it('has a sentence for every rule the pipeline names', () => {
    const unsaid = PIPELINE_RULES.filter((rule) => detailOf('field', rule).includes('breaks the rule'));
    expect(unsaid).toEqual([]);
  });

  it('still names a feature rule it has no sentence for', () => {
    expect(detailOf('to', 'before_from')).toBe('to: breaks the rule "before_from".');
  });
});
