/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as SlowSubsPage } from './SlowSubsPage.tsx';
export { default as SlowSubsSettings } from './SlowSubsSettings.tsx';
