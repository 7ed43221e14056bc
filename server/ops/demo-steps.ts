import { legacyDemoStep } from '../../legacy/demo-step.ts';
import { bookingsDemoStep } from '../bookings/demo-step.ts';
import { structureDemoStep } from '../rate-plans/demo-step.ts';
import type { DemoStep } from './demo.ts';

/**
 * The features that extend the demo fixture, in order. Each feature owns its step (structure first, then
 * the legacy facade's pieces, then bookings, which hold their rooms against the availability already offered).
 */
export const demoSteps: readonly DemoStep[] = [structureDemoStep, legacyDemoStep, bookingsDemoStep];
