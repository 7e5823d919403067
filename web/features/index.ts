/** Every feature of the console; the shell builds routes and menu from this list. */
import type { Feature } from '../lib/feature.ts';
import { monitoring } from './monitoring/index.ts';
import { system } from './system/index.ts';
import { management } from './management/index.ts';
import { diagnose } from './diagnose/index.ts';
import { accessControl } from './access-control/index.ts';
import { integration } from './integration/index.ts';

export const features: Feature[] = [monitoring, accessControl, management, integration, diagnose, system];
