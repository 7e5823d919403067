/**
 * The logged-in shell as one lazy part: its chunk, its stylesheets and the catalogue of the
 * console's language. The login page loads it ahead (Login.tsx), so that the shell and the first
 * screen render in the pass that follows sign-in.
 */
import type { ComponentType } from 'react';
import { loadCatalogue } from '../lib/i18n.ts';
import { preloadable } from '../lib/navigation.ts';
import { loadShellStyles } from './shellStyles.ts';

export const Shell = preloadable(async () => {
  const [shell] = await Promise.all([import('./Shell.tsx'), loadShellStyles(), loadCatalogue()]);
  return { default: shell.default as ComponentType };
});
