/**
 * The integration screens as one lazy chunk (see `fromFolder` in lib/feature.ts): connectors,
 * actions, sources, webhooks, rules and the flow list share most of their code. The flow designer
 * keeps its own chunk with the diagram library.
 */
export * from './connectors/screens.ts';
export { default as RulesPage } from './rules/RulesPage.tsx';
export { default as RuleEditor } from './rules/RuleEditor.tsx';
export { default as FlowsPage } from './flows/FlowsPage.tsx';
