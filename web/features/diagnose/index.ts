/** Diagnose: log trace and the in-browser MQTT test client. Screen texts live in each folder's messages.ts. */
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the shell chunk).
defineMessages({
  'diagnose.logTrace': { zh: '日志追踪', en: 'Log Trace' },
  'diagnose.traceDetail': { zh: '追踪详情', en: 'Trace details' },
  'diagnose.websocket': { zh: 'WebSocket 客户端', en: 'WebSocket Client' },
  'diagnose.topicExplorer': { zh: '主题浏览器', en: 'Topic Explorer' },
});

/** Log trace, the WebSocket client and the topic explorer as one lazy chunk (the MQTT library stays its own) */
const screen = (name: keyof typeof import('./screens.ts')) => fromFolder(() => import('./screens.ts'), name);

export const diagnose: Feature = {
  screens: [
    { path: '/log-trace', title: 'diagnose.logTrace', load: screen('LogTracePage'), menu: { group: 'diagnose', order: 10 } },
    { path: '/log-trace/detail/:id', title: 'diagnose.traceDetail', load: screen('TraceDetail'), parent: '/log-trace' },
    { path: '/websocket', title: 'diagnose.websocket', load: screen('WebSocketPage'), menu: { group: 'diagnose', order: 20 } },
    { path: '/topic-explorer', title: 'diagnose.topicExplorer', load: screen('TopicExplorerPage'), menu: { group: 'diagnose', order: 30 } },
  ],
};
