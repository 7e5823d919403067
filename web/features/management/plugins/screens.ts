/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as PluginDetail } from './PluginDetail.tsx';
export { default as PluginInstall } from './PluginInstall.tsx';
export { default as PluginsPage } from './PluginsPage.tsx';
