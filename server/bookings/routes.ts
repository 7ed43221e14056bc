import type { Deps } from '../core/deps.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { registerBookingCreation } from './create-routes.ts';
import { registerBookingFeed } from './feed-routes.ts';
import { registerInboundWebhooks } from './inbound-webhook.ts';
import { registerPropertyBookings } from './property-routes.ts';

/** Every partner-facing booking route (spec 4.5) and the inbound channel webhook. */
export function registerBookings(app: QcApp, deps: Deps) {
  registerBookingFeed(app, deps);
  registerPropertyBookings(app, deps);
  registerBookingCreation(app, deps);
  registerInboundWebhooks(app, deps);
}
