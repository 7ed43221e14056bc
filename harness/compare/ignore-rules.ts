import type { Endpoint } from './exchange.ts';
import type { FieldDifference } from './field-difference.ts';
import { generalizePath, pathCovers } from './json-path.ts';

/**
 * Explicit ignore rules: differences the migration team has decided not to hold against the port. One rule a
 * line, `METHOD PATH FIELD`, `*` standing for any method or any path; `#` starts a comment:
 *
 *     GET  /api/pms/v1/booking/getBookings  $.data[*].revision_id
 *     *    *                                headers.content-type
 *
 * A rule covers the field and everything under it; array indices in either are not told apart
 * (`$.data[0].x` and `$.data[*].x` both cover `$.data[7].x`).
 */
export interface IgnoreRule {
  method: string;
  path: string;
  field: string;
}

/** A rule as reports and counts name it: `GET /api/pms/v1/booking/getBookings $.data[*].revision_id`. */
export function ruleText(rule: IgnoreRule): string {
  return `${rule.method} ${rule.path} ${rule.field}`;
}

/**
 * The rules that forgave a difference in one exchange, each once however many of its fields it covered, with the
 * first field it forgave there: what a rule's count of forgiven exchanges adds up.
 */
export function rulesApplied(fields: readonly FieldDifference[]): Array<{ rule: string; path: string }> {
  const applied = new Map<string, string>();
  for (const field of fields) if (field.rule && !applied.has(field.rule)) applied.set(field.rule, field.path);
  return [...applied].map(([rule, path]) => ({ rule, path }));
}

export class IgnoreRulesError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export class IgnoreRules {
  constructor(readonly rules: readonly IgnoreRule[]) {}

  static parse(text: string): IgnoreRules {
    const rules: IgnoreRule[] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.replace(/(^|\s)#.*$/, '').trim();
      if (!line) return;
      const parts = line.split(/\s+/);
      if (parts.length !== 3) {
        throw new IgnoreRulesError(i + 1, `expected "METHOD PATH FIELD", got ${JSON.stringify(raw.trim())}`);
      }
      const [method, path, field] = parts as [string, string, string];
      if (path !== '*' && !path.startsWith('/')) throw new IgnoreRulesError(i + 1, `path must start with /: ${path}`);
      if (!/^(\$|status$|headers\.|body$)/.test(field)) {
        throw new IgnoreRulesError(i + 1, `field must be a JSON path ($...), status, headers.<name> or body: ${field}`);
      }
      rules.push({ method: method.toUpperCase(), path, field: generalizePath(field) });
    });
    return new IgnoreRules(rules);
  }

  ignores(endpoint: Endpoint, field: string): boolean {
    return this.ruleFor(endpoint, field) !== undefined;
  }

  /** The first rule, in file order, that covers `field` at this endpoint: the one its forgiveness is counted under. */
  ruleFor(endpoint: Endpoint, field: string): IgnoreRule | undefined {
    const general = generalizePath(field);
    return this.rules.find(
      (rule) =>
        (rule.method === '*' || rule.method === endpoint.method) &&
        (rule.path === '*' || rule.path === endpoint.path) &&
        pathCovers(rule.field, general),
    );
  }
}
