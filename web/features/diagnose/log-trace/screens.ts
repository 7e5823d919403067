/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as LogTracePage } from './LogTracePage.tsx';
export { default as TraceDetail } from './TraceDetail.tsx';
