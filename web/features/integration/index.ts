/**
 * Integration: rules (connectors, actions, sources, flows and webhooks join later). Screen texts
 * live in each folder's messages.ts.
 */
import type { Feature } from '../../lib/feature.ts';
import { defineMessages } from '../../lib/i18n.ts';

// Only the titles live here (they are in the menu, so in the shell chunk).
defineMessages({
  'integration.rules': { zh: '规则', en: 'Rules' },
  'integration.ruleCreate': { zh: '创建规则', en: 'Create rule' },
  'integration.ruleDetail': { zh: '规则详情', en: 'Rule details' },
});

export const integration: Feature = {
  screens: [
    { path: '/rule/rules', title: 'integration.rules', load: () => import('./rules/RulesPage.tsx'), menu: { group: 'integration', order: 10 } },
    { path: '/rule/rules/create', title: 'integration.ruleCreate', load: () => import('./rules/RuleEditor.tsx'), parent: '/rule/rules' },
    { path: '/rule/rules/:id', title: 'integration.ruleDetail', load: () => import('./rules/RuleEditor.tsx'), parent: '/rule/rules' },
  ],
  redirects: { '/rule': '/rule/rules' },
};
