/**
 * The logged-in frame: the left menu built from the features' declarations and the header.
 * With the stored left-bar collapse flag on (the default), only the group of the current
 * screen is open; off, every group is.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { t } from '../lib/i18n.ts';
import { setLeftBarCollapse, settings } from '../lib/settings.ts';
import { Icon } from '../ui/Icon.tsx';
import { Header } from './Header.tsx';
import { menu, screenAt } from './routes.ts';

export function Layout({ children }: { children: ComponentChildren }) {
  const [path] = useLocation();
  const { leftBarCollapse } = useSnapshot(settings);
  const current = screenAt(path);
  const activeGroup = current?.menu?.group ?? (current?.parent ? screenAt(current.parent)?.menu?.group : undefined);
  const [opened, setOpened] = useState<Record<string, boolean>>({});
  const isOpen = (group: string) => opened[group] ?? (!leftBarCollapse || group === activeGroup);

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
                  {section.items.map((item) => (
                    <li key={item.path}>
                      <Link href={item.path} aria-current={current === item || current?.parent === item.path ? 'page' : undefined}
                        data-test={`menu-${item.path.slice(1).replace(/\//g, '-')}`}>
                        {t(item.title)}
                      </Link>
                    </li>
                  ))}
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
