import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findImage, type ImageRow } from './images.ts';

/**
 * The image of GET and DELETE /gallery/:image, declared as the routes' `pathRecord`: the pipeline resolves it for
 * the caller before anything else of the request is read, so another customer's image, an unknown id or one that
 * is no UUID is a 404 (README, Authorization). A keyed retry of a delete that went through finds no row here and
 * replays its first answer all the same (the pipeline looks at the key before it refuses: README, Rate limits and
 * idempotency).
 */
export const pathImage: PathRecordResolver<ImageRow> = (deps, principal, params) =>
  findImage(deps.db, principal, params.image ?? '');
