/**
 * The route table, menu and breadcrumbs, all derived from the features' declarations
 * (DESIGN.md §3): the shell never lists a screen by hand.
 */
import { features } from '../features/index.ts';
import { has } from '../lib/broker.ts';
import { MENU_GROUPS, type MenuGroup, type MenuSub, type Screen } from '../lib/feature.ts';
import { preloadable } from '../lib/navigation.ts';
import { session } from '../lib/session.ts';

export const screens: Screen[] = features.flatMap((f) => f.screens);
export const redirects: Record<string, string> = Object.assign({ '/': '/dashboard' }, ...features.map((f) => f.redirects ?? {}));

/** Lazy components, created once per screen so a chunk loads on first entry only (or ahead, with `preload`). */
export const components = new Map(screens.map((s) => [s.path, preloadable(s.load)]));

/** A titled sub-list of a menu group, e.g. Access Control with Authentication and Authorization. */
export interface MenuSubGroup {
  sub: MenuSub;
  items: Screen[];
}

export interface MenuSection {
  group: MenuGroup;
  /** Every visible screen of the group, in menu order (sub-lists flattened). */
  items: Screen[];
  /** What the sidebar shows: screens and sub-lists, a sub-list standing at its first child's place. */
  entries: (Screen | MenuSubGroup)[];
}

export function isSubGroup(entry: Screen | MenuSubGroup): entry is MenuSubGroup {
  return 'sub' in entry;
}

/** Whether the logged-in broker has what `screen` needs (`Screen.requires`). */
export function available(screen: Screen) {
  return !screen.requires || has(screen.requires);
}

let built: { profile: string; sections: MenuSection[] } | undefined;

/**
 * Menu groups in specification order, each with its visible screens; empty groups are left out.
 * Built once per broker profile (what `available` reads): the shell asks on every screen change.
 */
export function menu(): MenuSection[] {
  const profile = `${session.version}|${session.edition}`;
  if (built?.profile !== profile) built = { profile, sections: buildMenu() };
  return built.sections;
}

function buildMenu(): MenuSection[] {
  return MENU_GROUPS.map((group) => {
    const items = screens.filter((s) => s.menu?.group === group && available(s)).sort((a, b) => a.menu!.order - b.menu!.order);
    const entries: (Screen | MenuSubGroup)[] = [];
    for (const item of items) {
      const sub = item.menu!.under;
      const existing = sub && entries.find((e): e is MenuSubGroup => isSubGroup(e) && e.sub === sub);
      if (existing) existing.items.push(item);
      else entries.push(sub ? { sub, items: [item] } : item);
    }
    return { group, items: entries.flatMap((e) => (isSubGroup(e) ? e.items : [e])), entries };
  }).filter((section) => section.items.length > 0);
}

/** Whether `path` is a declared screen (used to link only to screens that exist). */
export function hasScreen(path: string) {
  return screens.some((s) => s.path === path);
}

/** Each screen's path as a pattern (`:param` matches one segment), made once. */
const patterns = new Map(screens.map((s) => [s, new RegExp('^' + s.path.replace(/:[^/]+/g, '[^/]+') + '/?$')]));

/** The screen shown at `path`, if any. */
export function screenAt(path: string): Screen | undefined {
  return screens.find((s) => patterns.get(s)!.test(path));
}

/** Where a screen stands: the menu entry it lights and the screens from there down to it. */
export interface Placement {
  item?: Screen;
  chain: Screen[];
}

const byPath = (path: string) => screens.find((s) => s.path === path);

function ownPlacement(screen: Screen): Placement {
  const chain: Screen[] = [];
  for (let s: Screen | undefined = screen; s; s = s.parent ? byPath(s.parent) : undefined) chain.unshift(s);
  return { item: [...chain].reverse().find((s) => s.menu), chain };
}

/** The last placement given, so a tab opened from its host keeps the host's place. */
let last: { path: string; placed: Placement } | undefined;

/**
 * Where the screen at `path` stands, as the menu and the breadcrumbs show it: its own place, or,
 * for a tab (`Screen.tabOf`) opened from its host or from a screen under the host, the host's.
 */
export function placement(path: string): Placement {
  if (last?.path === path) return last.placed;
  const screen = screenAt(path);
  let placed: Placement = screen ? ownPlacement(screen) : { chain: [] };
  const at = placed.chain.findIndex((s) => s.tabOf);
  const host = at >= 0 ? byPath(placed.chain[at].tabOf!) : undefined;
  if (host && last?.placed.chain.includes(host)) {
    const hosted = ownPlacement(host);
    placed = { item: hosted.item, chain: [...hosted.chain, ...placed.chain.slice(at)] };
  }
  last = { path, placed };
  return placed;
}

/** Breadcrumb chain for `path`: the menu group, then parents, then the screen itself. */
export function breadcrumbs(path: string): { title: string; path?: string }[] {
  const { item, chain } = placement(path);
  const group = item?.menu?.group;
  return [...(group ? [{ title: `menu.${group}` }] : []), ...chain.map((s, i) => ({ title: s.title, path: i < chain.length - 1 ? s.path : undefined }))];
}
