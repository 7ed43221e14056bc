import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { type AckedRevision, revisionInScope } from './feed.ts';

/**
 * The revision of POST /booking_revisions/:revision/ack, declared as the route's `pathRecord`: the pipeline
 * resolves it for the caller before it reads the body, so a revision on a property the token may not act on, an
 * unknown id or a segment that is no revision id is a 404 whatever the body (README, Booking feed). The ack takes
 * the row it found: the partners' hottest write reads its revision once. Revisions are never deleted, so a keyed
 * retry of an ack finds it again and replays.
 */
export const pathRevision: PathRecordResolver<AckedRevision> = (deps, principal, params) =>
  revisionInScope(deps.db, principal, params.revision ?? '');
