/**
 * Styles of the help line under config fields (description, default, unit, reset), in Pico's
 * variables so both themes follow. They travel with the help module and are added once.
 */
import { addStyleSheet } from '../../../lib/styles.ts';

const CSS = `
.config-section .field>small:empty{display:none}
.config-section .field>[role=group]{margin-bottom:.15rem}
.field small.field-help{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1rem .8rem;margin:.1rem 0 .7rem;color:var(--pico-muted-color);font-size:.8rem;line-height:1.4}
.field-help .field-help-text{flex:1 1 100%}
.field-help .field-help-meta{white-space:nowrap}
.field-help button.field-reset{width:auto;margin:0;padding:0;border:0;background:none;box-shadow:none;color:var(--pico-primary);font-size:inherit;line-height:inherit;text-decoration:underline}
.field-help button.field-reset:focus-visible{outline:2px solid var(--pico-primary);outline-offset:2px}
`;

/** Adds the help line's styles to the page (once). */
export function addHelpStyles() {
  addStyleSheet('config-help-styles', CSS);
}
