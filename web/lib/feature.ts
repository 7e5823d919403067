/**
 * What a feature declares: its screens (route, title, menu place, lazy chunk) and redirects.
 * The shell builds the route table, the menu and the breadcrumbs from these alone.
 */
import type { ComponentType } from 'react';
import type { Params } from './api.ts';
import type { CapabilityName } from './broker.ts';

export type MenuGroup = 'monitoring' | 'management' | 'integration' | 'diagnose' | 'system';
export const MENU_GROUPS: readonly MenuGroup[] = ['monitoring', 'management', 'integration', 'diagnose', 'system'];
/** Titled, collapsible sub-lists inside a menu group (title key `menu.<name>`). */
export type MenuSub = 'accessControl' | 'extensions' | 'advancedMqtt';

export interface Screen {
  /** wouter pattern, e.g. `/users` or `/dashboard/nodes/:node`. */
  path: string;
  /** i18n key of the title (menu, breadcrumb, page heading). */
  title: string;
  /** The screen's chunk: `() => import('./UsersPage.tsx')`. */
  load: () => Promise<{ default: ComponentType<any> }>;
  /** Where it stands in the menu; absent for hidden screens such as details. */
  menu?: { group: MenuGroup; order: number; under?: MenuSub };
  /** Path of the parent screen for the breadcrumb. */
  parent?: string;
  /**
   * Path of a screen that also shows this one as a tab (Nodes under Cluster Overview): opened
   * from there, or from a screen under it, the menu and breadcrumbs stay with that screen.
   */
  tabOf?: string;
  /**
   * The broker capability the screen needs (`broker.ts`): without it the menu leaves the screen
   * out and its route says it is not available on this broker, without loading or calling anything.
   */
  requires?: CapabilityName;
  /**
   * The GETs the screen sends first, as `[path, params]` (read once the broker is known): when
   * sign-in leads to the screen they go out alongside its chunk (`prime`, lib/api.ts) and the
   * screen's own first asks take the answers. The first is what the screen shows first: sign-in
   * waits for its answer (briefly) so that the screen's first frame has it (app/Shell.tsx).
   */
  requests?: () => [string, Params?][];
}

export interface Feature {
  screens: Screen[];
  redirects?: Record<string, string>;
}

/**
 * The loader of a screen exported by name from its folder's `screens.ts`: the folder's screens
 * (list, create, detail) then share one lazy chunk, loaded when the first of them is entered,
 * instead of several small chunks that each pay gzip's start-up cost.
 * Example: `load: fromFolder(() => import('./gateways/screens.ts'), 'GatewayDetail')`.
 */
export function fromFolder<M>(load: () => Promise<M>, name: keyof M & string): Screen['load'] {
  return () => load().then((module) => ({ default: module[name] as ComponentType<any> }));
}
