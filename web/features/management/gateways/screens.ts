/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as GatewayCreate } from './GatewayCreate.tsx';
export { default as GatewayDetail } from './GatewayDetail.tsx';
export { default as GatewaysPage } from './GatewaysPage.tsx';
