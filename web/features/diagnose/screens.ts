/** Log trace, the WebSocket client and the topic explorer as one lazy chunk (the MQTT library stays its own) (see `fromFolder` in lib/feature.ts). */
export { LogTracePage } from './log-trace/screens.ts';
export { TraceDetail } from './log-trace/screens.ts';
export { default as WebSocketPage } from './websocket/WebSocketPage.tsx';
export { default as TopicExplorerPage } from './topic-explorer/TopicExplorerPage.tsx';
