/** Advanced MQTT, API keys, backup and the schema registry as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as TopicRewritePage } from './topic-rewrite/TopicRewritePage.tsx';
export { default as AutoSubscribePage } from './auto-subscribe/AutoSubscribePage.tsx';
export { DelayedPage } from './delayed/screens.ts';
export { DelayedSettingsPage } from './delayed/screens.ts';
export { default as ApiKeysPage } from './api-keys/ApiKeysPage.tsx';
export { default as BackupPage } from './backup/BackupPage.tsx';
export { SchemaRegistryPage } from './schema-registry/screens.ts';
export { SchemaEdit } from './schema-registry/screens.ts';
