/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as AuthenticationPage } from './AuthenticationPage.tsx';
export { default as AuthnCreatePage } from './AuthnCreatePage.tsx';
export { default as AuthnDetailPage } from './AuthnDetailPage.tsx';
