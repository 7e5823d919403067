/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as AuthorizationPage } from './AuthorizationPage.tsx';
export { default as AuthzCreatePage } from './AuthzCreatePage.tsx';
export { default as AuthzDetailPage } from './AuthzDetailPage.tsx';
export { default as AuthzSettingsPage } from './AuthzSettingsPage.tsx';
