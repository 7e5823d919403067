/**
 * The menu's icons, one per group, as 24×24 stroke paths for `ui/Icon`'s `d`. They belong to the
 * shell chunk, so the login page does not carry them; a handful of lines, no icon font
 * (STYLE.md habit 10).
 */
import type { MenuGroup } from '../lib/feature.ts';

export const MENU_ICONS: Record<MenuGroup, string> = {
  // A pulse line.
  monitoring: 'M3 12h4l3-7 4 14 3-7h4',
  // Three sliders.
  management: 'M4 6h8m4 0h4M4 12h2m4 0h10M4 18h10m4 0h2M12 4v4M6 10v4M14 16v4',
  // Two chain links.
  integration: 'M10 14l4-4M11 7l1.5-1.5a3.5 3.5 0 015 5L16 12M13 17l-1.5 1.5a3.5 3.5 0 01-5-5L8 12',
  // A magnifier over a pulse.
  diagnose: 'M10.5 17.5a7 7 0 100-14 7 7 0 000 14zM20 20l-4.5-4.5M6.5 10.5h2l1-2 2 4 1-2h1',
  // A cog.
  system: 'M12 15a3 3 0 100-6 3 3 0 000 6zM12 3v3m0 12v3M3 12h3m12 0h3M5.6 5.6l2.1 2.1m8.6 8.6l2.1 2.1M5.6 18.4l2.1-2.1m8.6-8.6l2.1-2.1',
};
