/**
 * Management: gateways, ExHook, plugins, topic rewrite, auto subscribe, delayed publish, backup
 * and API keys. Screen texts live in each folder's messages.ts.
 */
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the shell chunk).
defineMessages({
  'management.topicRewrite': { zh: '主题重写', en: 'Topic Rewrite' },
  'management.autoSubscribe': { zh: '自动订阅', en: 'Auto Subscribe' },
  'management.delayedPublish': { zh: '延迟发布', en: 'Delayed Publish' },
  'management.delayedSettings': { zh: '延迟发布设置', en: 'Delayed publish settings' },
  'management.apiKeys': { zh: 'API 密钥', en: 'API Key' },
  'management.plugins': { zh: '插件', en: 'Plugins' },
  'management.pluginInstall': { zh: '安装插件', en: 'Install plugin' },
  'management.pluginDetail': { zh: '插件详情', en: 'Plugin details' },
  'management.gateways': { zh: '网关', en: 'Gateways' },
  'management.gatewayCreate': { zh: '启用网关', en: 'Set up gateway' },
  'management.gatewayDetail': { zh: '网关详情', en: 'Gateway details' },
  'management.exhook': { zh: 'ExHook', en: 'ExHook' },
  'management.exhookCreate': { zh: '添加 ExHook', en: 'Add ExHook' },
  'management.exhookDetail': { zh: 'ExHook 详情', en: 'ExHook details' },
  'management.backup': { zh: '备份与恢复', en: 'Backup' },
  'management.schemaRegistry': { zh: 'Schema 注册表', en: 'Schema Registry' },
  'management.schemaCreate': { zh: '创建 Schema', en: 'Create schema' },
  'management.schemaDetail': { zh: 'Schema 详情', en: 'Schema details' },
});

/** Gateways, ExHook and plugins as one lazy chunk */
const extension = (name: keyof typeof import('./extensions.screens.ts')) => fromFolder(() => import('./extensions.screens.ts'), name);

/** Advanced MQTT, API keys, backup and the schema registry as one lazy chunk */
const admin = (name: keyof typeof import('./admin.screens.ts')) => fromFolder(() => import('./admin.screens.ts'), name);

export const management: Feature = {
  screens: [
    { path: '/topic-rewrite', title: 'management.topicRewrite', load: admin('TopicRewritePage'), menu: { group: 'management', order: 60, under: 'advancedMqtt' } },
    { path: '/auto-sub', title: 'management.autoSubscribe', load: admin('AutoSubscribePage'), menu: { group: 'management', order: 61, under: 'advancedMqtt' } },
    { path: '/delayed-pub', title: 'management.delayedPublish', load: admin('DelayedPage'), menu: { group: 'management', order: 62, under: 'advancedMqtt' } },
    { path: '/delayed-pub-configuration', title: 'management.delayedSettings', load: admin('DelayedSettingsPage'), parent: '/delayed-pub' },
    { path: '/api-key', title: 'management.apiKeys', load: admin('ApiKeysPage'), menu: { group: 'management', order: 100 } },
    { path: '/plugins', title: 'management.plugins', load: extension('PluginsPage'), menu: { group: 'management', order: 22, under: 'extensions' } },
    { path: '/plugins/install', title: 'management.pluginInstall', load: extension('PluginInstall'), parent: '/plugins' },
    { path: '/plugins/detail/:nameVersion', title: 'management.pluginDetail', load: extension('PluginDetail'), parent: '/plugins' },
    { path: '/gateway', title: 'management.gateways', load: extension('GatewaysPage'), menu: { group: 'management', order: 20, under: 'extensions' } },
    { path: '/gateway/create/:name', title: 'management.gatewayCreate', load: extension('GatewayCreate'), parent: '/gateway' },
    { path: '/gateway/detail/:name/:tab?', title: 'management.gatewayDetail', load: extension('GatewayDetail'), parent: '/gateway' },
    { path: '/exhook', title: 'management.exhook', load: extension('ExhookPage'), menu: { group: 'management', order: 21, under: 'extensions' } },
    { path: '/exhook/create', title: 'management.exhookCreate', load: extension('ExhookCreate'), parent: '/exhook' },
    { path: '/exhook/detail/:name', title: 'management.exhookDetail', load: extension('ExhookDetail'), parent: '/exhook' },
    { path: '/backup', title: 'management.backup', load: admin('BackupPage'), menu: { group: 'management', order: 90 } },
    { path: '/schema-registry', title: 'management.schemaRegistry', load: admin('SchemaRegistryPage'), menu: { group: 'management', order: 50 }, requires: 'schemaRegistry' },
    { path: '/schema-registry/create', title: 'management.schemaCreate', load: admin('SchemaEdit'), parent: '/schema-registry', requires: 'schemaRegistry' },
    { path: '/schema-registry/detail/:name', title: 'management.schemaDetail', load: admin('SchemaEdit'), parent: '/schema-registry', requires: 'schemaRegistry' },
  ],
};
