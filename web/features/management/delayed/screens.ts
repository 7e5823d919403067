/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as DelayedPage } from './DelayedPage.tsx';
export { default as DelayedSettingsPage } from './DelayedSettingsPage.tsx';
