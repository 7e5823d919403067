/** The access-control screens (authentication, authorization, banned, flapping) as one lazy chunk: they share most of their code (see `fromFolder` in lib/feature.ts). */
export { AuthenticationPage } from './authentication/screens.ts';
export { AuthnCreatePage } from './authentication/screens.ts';
export { AuthnDetailPage } from './authentication/screens.ts';
export { AuthorizationPage } from './authorization/screens.ts';
export { AuthzCreatePage } from './authorization/screens.ts';
export { AuthzDetailPage } from './authorization/screens.ts';
export { AuthzSettingsPage } from './authorization/screens.ts';
export { default as BannedPage } from './banned/BannedPage.tsx';
export { default as FlappingPage } from './flapping/FlappingPage.tsx';
