/**
 * Access control (Management menu group): authentication, authorization, banned clients and
 * flapping detection. Screen texts live in each folder's messages.ts.
 */
import type { Feature } from '../../lib/feature.ts';

export const accessControl: Feature = {
  screens: [],
};
