import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { type DeliveryRow, findDelivery } from './delivery-log.ts';

/**
 * The delivery of POST /deliveries/:delivery/redeliver, declared as the route's `pathRecord`: the pipeline resolves
 * it for the caller before it reads the body, so a delivery of a subscription the caller may not see (another
 * customer's, one outside its allow-list), an unknown id or one that is no UUID is a 404 whatever the body
 * (README, Webhooks). It finds a delivery of a deleted subscription too: the redelivery answers 404 for that one
 * after the Idempotency-Key claim, so a keyed retry of a redelivery that went through replays its first answer.
 */
export const pathDelivery: PathRecordResolver<DeliveryRow> = (deps, principal, params) =>
  findDelivery(deps.db, principal, params.delivery ?? '');
