import { legacyDemoStep } from '../../legacy/demo-step.ts';
import { structureDemoStep } from '../rate-plans/demo-step.ts';
import type { DemoStep } from './demo.ts';

/**
 * The features that extend the demo fixture, in order. Each feature owns its step (structure first, then
 * bookings, then the legacy facade's pieces).
 */
export const demoSteps: readonly DemoStep[] = [structureDemoStep, legacyDemoStep];
