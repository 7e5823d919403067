/**
 * Integration: rules, connectors, actions, sources, flows and webhooks. Screen texts
 * live in each folder's messages.ts.
 */
import { fromFolder, type Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the shell chunk).
defineMessages({
  'integration.rules': { zh: '规则', en: 'Rules' },
  'integration.ruleCreate': { zh: '创建规则', en: 'Create rule' },
  'integration.ruleDetail': { zh: '规则详情', en: 'Rule details' },
  'integration.connectors': { zh: '连接器', en: 'Connectors' },
  'integration.connectorCreate': { zh: '创建连接器', en: 'Create connector' },
  'integration.connectorDetail': { zh: '连接器详情', en: 'Connector details' },
  'integration.actions': { zh: '动作（Sink）', en: 'Actions (sinks)' },
  'integration.actionCreate': { zh: '创建动作', en: 'Create action' },
  'integration.actionDetail': { zh: '动作详情', en: 'Action details' },
  'integration.sources': { zh: 'Source', en: 'Sources' },
  'integration.sourceCreate': { zh: '创建 Source', en: 'Create source' },
  'integration.sourceDetail': { zh: 'Source 详情', en: 'Source details' },
  'integration.webhook': { zh: 'Webhook', en: 'Webhook' },
  'integration.webhookCreate': { zh: '创建 Webhook', en: 'Create webhook' },
  'integration.webhookDetail': { zh: 'Webhook 详情', en: 'Webhook details' },
  'integration.flows': { zh: 'Flow 设计器', en: 'Flows' },
  'integration.flowCreate': { zh: '创建 Flow', en: 'Create flow' },
  'integration.flowDetail': { zh: 'Flow 详情', en: 'Flow details' },
});

/** Every integration screen but the flow designer shares one chunk (screens.ts). */
const screen = (name: keyof typeof import('./screens.ts')) => fromFolder(() => import('./screens.ts'), name);

export const integration: Feature = {
  screens: [
    { path: '/rule/rules', title: 'integration.rules', load: screen('RulesPage'), menu: { group: 'integration', order: 10 } },
    { path: '/rule/rules/create', title: 'integration.ruleCreate', load: screen('RuleEditor'), parent: '/rule/rules' },
    { path: '/rule/rules/:id', title: 'integration.ruleDetail', load: screen('RuleEditor'), parent: '/rule/rules' },
    { path: '/connector', title: 'integration.connectors', load: screen('ConnectorsPage'), menu: { group: 'integration', order: 5 } },
    { path: '/connector/create', title: 'integration.connectorCreate', load: screen('ConnectorCreate'), parent: '/connector' },
    { path: '/connector/:id', title: 'integration.connectorDetail', load: screen('ConnectorDetail'), parent: '/connector' },
    { path: '/rule/actions', title: 'integration.actions', load: screen('ActionsPage'), menu: { group: 'integration', order: 20 } },
    { path: '/rule/actions/create', title: 'integration.actionCreate', load: screen('ActionEdit'), parent: '/rule/actions' },
    { path: '/rule/actions/:id', title: 'integration.actionDetail', load: screen('ActionEdit'), parent: '/rule/actions' },
    { path: '/rule/source', title: 'integration.sources', load: screen('SourcesPage'), menu: { group: 'integration', order: 25 } },
    { path: '/rule/source/create', title: 'integration.sourceCreate', load: screen('ActionEdit'), parent: '/rule/source' },
    { path: '/rule/source/:id', title: 'integration.sourceDetail', load: screen('ActionEdit'), parent: '/rule/source' },
    { path: '/flow', title: 'integration.flows', load: screen('FlowsPage'), menu: { group: 'integration', order: 27 } },
    { path: '/flow/create', title: 'integration.flowCreate', load: () => import('./flows/FlowDesigner.tsx'), parent: '/flow' },
    { path: '/flow/:id', title: 'integration.flowDetail', load: () => import('./flows/FlowDesigner.tsx'), parent: '/flow' },
    { path: '/webhook', title: 'integration.webhook', load: screen('WebhookPage'), menu: { group: 'integration', order: 30 } },
    { path: '/webhook/create', title: 'integration.webhookCreate', load: screen('WebhookEdit'), parent: '/webhook' },
    { path: '/webhook/:name', title: 'integration.webhookDetail', load: screen('WebhookEdit'), parent: '/webhook' },
  ],
  redirects: { '/rule': '/rule/rules' },
};
