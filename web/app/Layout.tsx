/**
 * The logged-in frame: a skip link, the header, the left menu built from the features'
 * declarations, then the screen — in that order in the page, so Tab goes header → menu → content.
 * With the stored left-bar collapse flag on (the default), only the group of the current screen
 * is open; off, every group is. Sub-lists (Access Control, Extensions, Advanced MQTT) fold the same
 * way inside their group. The menu can shrink to an icon rail (remembered in the settings), where
 * a group's icon opens its entries beside the rail.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { t } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { setLeftBarCollapse, settings } from '../lib/settings.ts';
import { readSettings, writeSettings } from '../lib/storage.ts';
import { Icon } from '../ui/Icon.tsx';
import { usePressOutside } from '../ui/usePopover.ts';
import { ConnectionBanner } from './ConnectionBanner.tsx';
import { Header } from './Header.tsx';
import { MENU_ICONS } from './menuIcons.ts';
import { isSubGroup, menu, placement } from './routes.ts';
import type { Screen } from '../lib/feature.ts';

/**
 * After a move to another screen (not on the first one), the focus goes to the new screen's
 * heading once it is drawn, so the keyboard and a screen reader start there instead of in the
 * menu. Not when the focus already went somewhere in the screen, or a dialog holds it.
 */
function useHeadingFocus(path: string, main: RefObject<HTMLElement | null>) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) return void (first.current = false);
    let frame = 0;
    let tries = 0;
    const look = () => {
      const focused = document.activeElement;
      if (focused && focused !== document.body && main.current?.contains(focused)) return;
      const heading = main.current?.querySelector<HTMLElement>('h1, h2');
      if (!heading) return void (tries++ < 300 && (frame = requestAnimationFrame(look)));
      if (document.querySelector('[aria-modal=true]')) return;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [path]);
}

export function Layout({ children }: { children: ComponentChildren }) {
  const [path] = useLocation();
  const { leftBarCollapse } = useSnapshot(settings);
  // The menu depends on the broker profile (routes.ts `available`): follow the session.
  useSnapshot(session);
  // The menu entry the screen lights (a tab opened from its host lights the host's).
  const { item: lit } = placement(path);
  const activeGroup = lit?.menu?.group;
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  const [rail, setRail] = useState(() => readSettings().menuRail === true);
  // The rail shows one group's entries at a time, until a screen is chosen or the focus leaves.
  const [flyout, setFlyout] = useState('');
  const main = useRef<HTMLElement>(null);
  const sidebar = useRef<HTMLElement>(null);
  useEffect(() => setFlyout(''), [path, rail]);
  useHeadingFocus(path, main);
  usePressOutside(sidebar, !!flyout, () => setFlyout(''));

  // A sub-list starts open when it holds the current screen (or its parent) or nothing is collapsed.
  const isOpen = (key: string, items?: Screen[]) =>
    opened[key] ?? (!leftBarCollapse || (items ? items.some((s) => s === lit) : key === activeGroup));
  const groupOpen = (group: string) => (rail ? flyout === group : isOpen(group));
  const toggleRail = () => {
    writeSettings({ menuRail: !rail });
    setRail(!rail);
  };
  const link = (item: Screen) => (
    <li key={item.path}>
      <Link href={item.path} aria-current={lit === item ? 'page' : undefined}
        data-test={`menu-${item.path.slice(1).replace(/\//g, '-')}`}>
        {t(item.title)}
      </Link>
    </li>
  );

  return (
    <div class={rail ? 'layout rail' : 'layout'} data-test="layout">
      <a class="skip-link" href="#main-content" data-test="skip-link"
        onClick={(event) => (event.preventDefault(), main.current?.focus())}>
        {t('shell.skipToMain')}
      </a>
      <Header />
      <aside class="sidebar" ref={sidebar}>
        <div class="brand">
          {!rail && <strong>EMQX</strong>}
          {!rail && (
            <button type="button" class="icon-button" aria-label={t('menu.toggle')} aria-pressed={!leftBarCollapse}
              data-test="menu-toggle" onClick={() => (setOpened({}), setLeftBarCollapse(!leftBarCollapse))}>
              <Icon name="menu" />
            </button>
          )}
          <button type="button" class="icon-button rail-toggle" aria-pressed={rail} data-test="menu-rail"
            aria-label={t(rail ? 'menu.railOff' : 'menu.railOn')} title={t(rail ? 'menu.railOff' : 'menu.railOn')} onClick={toggleRail}>
            <Icon name="chevron" />
          </button>
        </div>
        <nav aria-label={t('common.appName')}>
          {menu().map((section) => {
            const title = t(`menu.${section.group}`);
            return (
              <div class={section.group === activeGroup ? 'menu-group active' : 'menu-group'} key={section.group}
                onKeyDown={rail ? (event) => {
                  if (event.key !== 'Escape' || !flyout) return;
                  setFlyout('');
                  (event.currentTarget as HTMLElement).querySelector<HTMLElement>('.menu-group-title')?.focus();
                } : undefined}
                onBlurCapture={rail ? (event) => {
                  const next = (event as FocusEvent).relatedTarget as Node | null;
                  if (next && !(event.currentTarget as HTMLElement).contains(next) && flyout === section.group) setFlyout('');
                } : undefined}>
                <button type="button" class="menu-group-title" aria-expanded={groupOpen(section.group)}
                  data-test={`menu-group-${section.group}`} title={rail ? title : undefined} aria-label={rail ? title : undefined}
                  onClick={() => rail
                    ? setFlyout(flyout === section.group ? '' : section.group)
                    : setOpened({ ...opened, [section.group]: !isOpen(section.group) })}>
                  <Icon d={MENU_ICONS[section.group]} />
                  <span class="menu-label">{title}</span>
                  <Icon name="chevron" size={14} />
                </button>
                {groupOpen(section.group) && (
                  <ul class={rail ? 'menu-flyout' : undefined} aria-label={rail ? title : undefined}>
                    {section.entries.map((entry) => isSubGroup(entry) ? (
                      <li key={entry.sub} class="menu-sub">
                        <button type="button" class="menu-sub-title" aria-expanded={isOpen(`sub:${entry.sub}`, entry.items)}
                          data-test={`menu-sub-${entry.sub}`}
                          onClick={() => setOpened({ ...opened, [`sub:${entry.sub}`]: !isOpen(`sub:${entry.sub}`, entry.items) })}>
                          <span>{t(`menu.${entry.sub}`)}</span>
                          <Icon name="chevron" size={12} />
                        </button>
                        {isOpen(`sub:${entry.sub}`, entry.items) && <ul>{entry.items.map(link)}</ul>}
                      </li>
                    ) : link(entry))}
                  </ul>
                )}
              </div>
            );
          })}
        </nav>
      </aside>
      <main class="content" id="main-content" tabIndex={-1} ref={main}><ConnectionBanner />{children}</main>
    </div>
  );
}
