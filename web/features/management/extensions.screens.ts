/** Gateways, ExHook and plugins as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { PluginsPage } from './plugins/screens.ts';
export { PluginInstall } from './plugins/screens.ts';
export { PluginDetail } from './plugins/screens.ts';
export { GatewaysPage } from './gateways/screens.ts';
export { GatewayCreate } from './gateways/screens.ts';
export { GatewayDetail } from './gateways/screens.ts';
export { ExhookPage } from './exhook/screens.ts';
export { ExhookCreate } from './exhook/screens.ts';
export { ExhookDetail } from './exhook/screens.ts';
