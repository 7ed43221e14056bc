import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findImage, type ImageRow } from './images.ts';

/**
 * The image of GET /gallery/:image, declared as the route's `pathRecord`: the pipeline resolves it for the caller
 * before anything else of the request is read, so another customer's image, an unknown id or one that is no UUID
 * is a 404 (README, Authorization). DELETE /gallery/:image does not declare it: a deleted image leaves no row, so
 * a keyed retry of a delete that went through would be refused here instead of replaying its first answer
 * (README, Rate limits and idempotency).
 */
export const pathImage: PathRecordResolver<ImageRow> = (deps, principal, params) =>
  findImage(deps.db, principal, params.image ?? '');
