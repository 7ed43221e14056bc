import { createBooking } from '../bookings/intake.ts';
import { amenitiesDemoStep } from './amenities-step.ts';
import { autoEmailTemplatesDemoStep } from './auto-email-templates-step.ts';
import { bookingsDemoStep } from './bookings-step.ts';
import { configurationDemoStep } from './config-surfaces-step.ts';
import { contentPagesDemoStep } from './content-pages-step.ts';
import type { DemoStep } from './demo.ts';
import { galleryDemoStep } from './gallery-step.ts';
import { guestFeedbackDemoStep } from './guest-feedback-step.ts';
import { seedLegacyDemo } from './legacy-step.ts';
import { reviewsDemoStep } from './reviews-step.ts';
import { structureDemoStep } from './structure-step.ts';

/** The legacy facade's pieces; legacy/ cannot import the bookings domain, so its bookings are taken here. */
const legacyDemoStep: DemoStep = async ({ deps, live, demo }) => {
  demo.legacy = await seedLegacyDemo({
    deps,
    live,
    legacyApiKey: demo.legacy_api_key,
    book: async (stay) => (await createBooking(deps, stay)).booking.id,
  });
};

/**
 * The features that extend the demo fixture, in order. Each feature owns its step (structure first, then
 * the legacy facade's pieces, then the configuration entities (a special offer hangs on the legacy booking
 * module), then bookings, which hold their rooms against the availability already offered), then the
 * configuration surfaces II (gallery, content pages, guest feedback, reviews, auto-email templates, amenities).
 */
export const demoSteps: readonly DemoStep[] = [
  structureDemoStep,
  legacyDemoStep,
  configurationDemoStep,
  bookingsDemoStep,
  // Configuration surfaces II; guest feedback needs a booking, the content page the gallery image.
  galleryDemoStep,
  contentPagesDemoStep,
  guestFeedbackDemoStep,
  reviewsDemoStep,
  autoEmailTemplatesDemoStep,
  amenitiesDemoStep,
];
