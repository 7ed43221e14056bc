import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findTemplate, type TemplateRow } from './templates.ts';

/**
 * The template of every route under /auto_email_templates/:template, declared as the route's `pathRecord`: the
 * pipeline resolves it for the caller before it reads the body or the query, so another customer's template, one
 * aimed at properties outside the token's allow-list, or an unknown id, is a 404 whatever the body (README,
 * Authorization). A write locks it again in its transaction, where one deleted in between is still a 404. A
 * deleted template leaves no row: a keyed retry of a DELETE that went through replays its first answer all the
 * same, the pipeline looking for it before this 404 (README, Rate limits and idempotency).
 */
export const pathTemplate: PathRecordResolver<TemplateRow> = (deps, principal, params) =>
  findTemplate(deps.db, principal, params.template ?? '');
