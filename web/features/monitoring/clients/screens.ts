/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as ClientDetail } from './ClientDetail.tsx';
export { default as ClientsPage } from './ClientsPage.tsx';
