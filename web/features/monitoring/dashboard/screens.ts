/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as MetricsPage } from './MetricsPage.tsx';
export { default as NodeDetail } from './NodeDetail.tsx';
export { default as NodesPage } from './NodesPage.tsx';
export { default as Overview } from './Overview.tsx';
