/**
 * The logged-in frame: the left menu built from the features' declarations and the header.
 * With the stored left-bar collapse flag on (the default), only the group of the current
 * screen is open; off, every group is. Sub-lists (Access Control, Extensions, Advanced MQTT) fold
 * the same way inside their group.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { t } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { setLeftBarCollapse, settings } from '../lib/settings.ts';
import { Icon } from '../ui/Icon.tsx';
import { Header } from './Header.tsx';
import { isSubGroup, menu, screenAt } from './routes.ts';
import type { Screen } from '../lib/feature.ts';

export function Layout({ children }: { children: ComponentChildren }) {
  const [path] = useLocation();
  const { leftBarCollapse } = useSnapshot(settings);
  // The menu depends on the broker profile (routes.ts `available`): follow the session.
  useSnapshot(session);
  const current = screenAt(path);
  const activeGroup = current?.menu?.group ?? (current?.parent ? screenAt(current.parent)?.menu?.group : undefined);
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  // A sub-list starts open when it holds the current screen (or its parent) or nothing is collapsed.
  const isOpen = (key: string, items?: Screen[]) =>
    opened[key] ?? (!leftBarCollapse || (items ? items.some((s) => s === current || s.path === current?.parent) : key === activeGroup));
  const link = (item: Screen) => (
    <li key={item.path}>
      <Link href={item.path} aria-current={current === item || (!current?.menu && current?.parent === item.path) ? 'page' : undefined}
        data-test={`menu-${item.path.slice(1).replace(/\//g, '-')}`}>
        {t(item.title)}
      </Link>
    </li>
  );

  return (
    <div class="layout">
      <aside class="sidebar">
        <div class="brand">
          <strong>EMQX</strong>
          <button type="button" class="icon-button" aria-label={t('menu.toggle')} aria-pressed={!leftBarCollapse}
            data-test="menu-toggle" onClick={() => (setOpened({}), setLeftBarCollapse(!leftBarCollapse))}>
            <Icon name="menu" />
          </button>
        </div>
        <nav aria-label={t('common.appName')}>
          {menu().map((section) => (
            <div class="menu-group" key={section.group}>
              <button type="button" class="menu-group-title" aria-expanded={isOpen(section.group)} data-test={`menu-group-${section.group}`}
                onClick={() => setOpened({ ...opened, [section.group]: !isOpen(section.group) })}>
                <span>{t(`menu.${section.group}`)}</span>
                <Icon name="chevron" size={14} />
              </button>
              {isOpen(section.group) && (
                <ul>
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
          ))}
        </nav>
      </aside>
      <div class="main">
        <Header />
        <main class="content">{children}</main>
      </div>
    </div>
  );
}
