/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as ExhookCreate } from './ExhookCreate.tsx';
export { default as ExhookDetail } from './ExhookDetail.tsx';
export { default as ExhookPage } from './ExhookPage.tsx';
