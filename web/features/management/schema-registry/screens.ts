/** The screens of this folder as one lazy chunk (see `fromFolder` in lib/feature.ts). */
export { default as SchemaEdit } from './SchemaEdit.tsx';
export { default as SchemaRegistryPage } from './SchemaRegistryPage.tsx';
