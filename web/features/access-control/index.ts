/**
 * Access control (Management menu group): authentication, authorization, banned clients and
 * flapping detection. Screen texts live in each folder's messages.ts.
 */
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu and breadcrumbs, so in the shell chunk).
defineMessages({
  'accessControl.authentication': { zh: '客户端认证', en: 'Authentication' },
  'accessControl.authnCreate': { zh: '创建认证', en: 'Create Authentication' },
  'accessControl.authnDetail': { zh: '认证详情', en: 'Authentication Details' },
  'accessControl.authorization': { zh: '客户端授权', en: 'Authorization' },
  'accessControl.authzCreate': { zh: '创建授权', en: 'Create Authorization' },
  'accessControl.authzDetail': { zh: '授权详情', en: 'Authorization Details' },
  'accessControl.authzSettings': { zh: '授权设置', en: 'Authorization Settings' },
  'accessControl.banned': { zh: '黑名单', en: 'Banned Clients' },
  'accessControl.flapping': { zh: '连接抖动检测', en: 'Flapping Detect' },
  'accessControl.accessCheck': { zh: '权限检查', en: 'Access check' },
});

/** The access-control screens (authentication, authorization, banned, flapping) as one lazy chunk: they share most of their code */
const screen = (name: keyof typeof import('./screens.ts')) => fromFolder(() => import('./screens.ts'), name);

export const accessControl: Feature = {
  screens: [
    { path: '/authentication', title: 'accessControl.authentication', load: screen('AuthenticationPage'), menu: { group: 'management', order: 10, under: 'accessControl' } },
    { path: '/authentication/create', title: 'accessControl.authnCreate', load: screen('AuthnCreatePage'), parent: '/authentication' },
    { path: '/authentication/detail/:id', title: 'accessControl.authnDetail', load: screen('AuthnDetailPage'), parent: '/authentication' },
    { path: '/authorization', title: 'accessControl.authorization', load: screen('AuthorizationPage'), menu: { group: 'management', order: 11, under: 'accessControl' } },
    { path: '/authorization/create', title: 'accessControl.authzCreate', load: screen('AuthzCreatePage'), parent: '/authorization' },
    { path: '/authorization/detail/:type', title: 'accessControl.authzDetail', load: screen('AuthzDetailPage'), parent: '/authorization' },
    { path: '/authorization/settings', title: 'accessControl.authzSettings', load: screen('AuthzSettingsPage'), parent: '/authorization' },
    // Its own chunk: the MQTT library it uses loads with it, the access-control screens do not need either.
    { path: '/access-check', title: 'accessControl.accessCheck', load: () => import('./access-check/AccessCheckPage.tsx'), menu: { group: 'management', order: 12, under: 'accessControl' } },
    { path: '/banned-clients', title: 'accessControl.banned', load: screen('BannedPage'), menu: { group: 'management', order: 55 } },
    { path: '/flapping-detect', title: 'accessControl.flapping', load: screen('FlappingPage'), menu: { group: 'management', order: 56 }, parent: '/banned-clients' },
  ],
};
