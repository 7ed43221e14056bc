import type { OperatorRouteDefinition } from '../core/routes/operator-route.ts';
import type { LegacyCutoverParts } from '../legacy-cutover/legacy-cutover.ts';
import { listLegacyKeys } from '../legacy-cutover/list-legacy-keys.ts';
import { listShadowScores } from '../legacy-cutover/list-shadow-scores.ts';
import { setSunsetRoute } from '../legacy-cutover/set-sunset.ts';
import { showLegacyKey } from '../legacy-cutover/show-legacy-key.ts';
import { showReadiness } from '../legacy-cutover/show-readiness.ts';
import { updateCutover } from '../legacy-cutover/update-cutover.ts';
import { withdrawSunsetRoute } from '../legacy-cutover/withdraw-sunset.ts';
import { cancelBookingOp } from './cancel-booking.ts';
import { confirmBookingOp } from './confirm-booking.ts';
import { createClientOp } from './create-client.ts';
import { createCustomerOp } from './create-customer.ts';
import { createLegacyKeyOp } from './create-legacy-key.ts';
import { createPropertyOp } from './create-property.ts';
import { createPropertyGroupOp } from './create-property-group.ts';
import { dashboardLinkLegacyRoomsOp, dashboardShowLegacyRoomLinksOp } from './dashboard-legacy-room-links.ts';
import { dashboardRotateClientSecretOp } from './dashboard-rotate-client-secret.ts';
import { linkLegacyRoomsOp, showLegacyRoomLinksOp } from './link-legacy-rooms.ts';
import { listPersonalTokensOp } from './list-personal-tokens.ts';
import { mintDashboardTokenOp } from './mint-dashboard-token.ts';
import { mintPersonalTokenOp } from './mint-personal-token.ts';
import { modifyBookingOp } from './modify-booking.ts';
import { pausePropertyGroupOp } from './pause-property-group.ts';
import { receiveReviewOp } from './receive-review.ts';
import { recordNoShowOp } from './record-no-show.ts';
import { revokeClientOp } from './revoke-client.ts';
import { revokePersonalTokenOp } from './revoke-personal-token.ts';
import { rotateClientSecretOp } from './rotate-client-secret.ts';
import { rotateSigningKeysOp } from './rotate-signing-keys.ts';
import { seedBookingsOp } from './seed-bookings.ts';
import { setPropertyModeOp } from './set-property-mode.ts';
import { setPropertyStatusOp } from './set-property-status.ts';
import { showBookingOp } from './show-booking.ts';
import { showIncidentOp } from './show-incident.ts';
import { takeBookingOp } from './take-booking.ts';

/**
 * The operator API's route table (the demo's POST /ops/demo joins it in server/operator-route-table.ts: the
 * demo sits beside the operator API, not below it). The sunset route holds the process's cutover parts.
 */
export function operatorRoutes(cutover: Pick<LegacyCutoverParts, 'sunset'>): OperatorRouteDefinition[] {
  return [
    // Customers, properties and their groups.
    createCustomerOp,
    mintDashboardTokenOp,
    createPropertyGroupOp,
    pausePropertyGroupOp,
    createPropertyOp,
    setPropertyModeOp,
    setPropertyStatusOp,
    showLegacyRoomLinksOp,
    linkLegacyRoomsOp,
    // Credentials.
    createClientOp,
    rotateClientSecretOp,
    revokeClientOp,
    rotateSigningKeysOp,
    // Platform channel bookings and reviews.
    takeBookingOp,
    seedBookingsOp,
    showBookingOp,
    modifyBookingOp,
    confirmBookingOp,
    cancelBookingOp,
    recordNoShowOp,
    receiveReviewOp,
    // The legacy facade's keys and cutover (spec 9.4).
    createLegacyKeyOp,
    listLegacyKeys,
    showLegacyKey,
    updateCutover,
    listShadowScores,
    showReadiness,
    setSunsetRoute(cutover),
    withdrawSunsetRoute(cutover),
    // Support.
    showIncidentOp,
    // The customer's dashboard.
    mintPersonalTokenOp,
    listPersonalTokensOp,
    revokePersonalTokenOp,
    dashboardRotateClientSecretOp,
    dashboardShowLegacyRoomLinksOp,
    dashboardLinkLegacyRoomsOp,
  ];
}
