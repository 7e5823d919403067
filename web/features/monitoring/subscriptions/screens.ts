/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as SubscriptionsPage } from './SubscriptionsPage.tsx';
export { default as TopicsPage } from './TopicsPage.tsx';
