/**
 * Management: topic rewrite, auto subscribe, delayed publish and API keys (gateways, ExHook,
 * plugins and backup join later). Screen texts live in each folder's messages.ts.
 */
import type { Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the shell chunk).
defineMessages({
  'management.topicRewrite': { zh: '主题重写', en: 'Topic Rewrite' },
  'management.autoSubscribe': { zh: '自动订阅', en: 'Auto Subscribe' },
  'management.delayedPublish': { zh: '延迟发布', en: 'Delayed Publish' },
  'management.delayedSettings': { zh: '延迟发布设置', en: 'Delayed publish settings' },
  'management.apiKeys': { zh: 'API 密钥', en: 'API Key' },
});

export const management: Feature = {
  screens: [
    { path: '/topic-rewrite', title: 'management.topicRewrite', load: () => import('./topic-rewrite/TopicRewritePage.tsx'), menu: { group: 'management', order: 60 } },
    { path: '/auto-sub', title: 'management.autoSubscribe', load: () => import('./auto-subscribe/AutoSubscribePage.tsx'), menu: { group: 'management', order: 70 } },
    { path: '/delayed-pub', title: 'management.delayedPublish', load: () => import('./delayed/DelayedPage.tsx'), menu: { group: 'management', order: 80 } },
    { path: '/delayed-pub-configuration', title: 'management.delayedSettings', load: () => import('./delayed/DelayedSettingsPage.tsx'), parent: '/delayed-pub' },
    { path: '/api-key', title: 'management.apiKeys', load: () => import('./api-keys/ApiKeysPage.tsx'), menu: { group: 'management', order: 100 } },
  ],
};
