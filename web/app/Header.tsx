/**
 * The top bar: breadcrumbs, alarm banner and the user menu with Settings, Change password, the
 * user's own MFA (set up or turn off, where the broker has MFA) and Logout.
 */
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { api } from '../lib/api.ts';
import { has } from '../lib/broker.ts';
import { confirm } from '../lib/confirm.ts';
import { handleError } from '../lib/errors.ts';
import { t } from '../lib/i18n.ts';
import { navigate } from '../lib/navigation.ts';
import { clearSession, isEnterprise, logout, session } from '../lib/session.ts';
import { toast } from '../lib/toasts.ts';
import { Icon } from '../ui/Icon.tsx';
import { usePopover } from '../ui/usePopover.ts';
import { AlarmBanner } from './AlarmBanner.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { breadcrumbs } from './routes.ts';

export function Header() {
  const [path] = useLocation();
  const { username, version, edition } = useSnapshot(session);
  // The release the console talks to; from 5.9 on there is one edition to name.
  const release = t(has('singleEdition') ? 'header.releaseOne' : isEnterprise(edition) ? 'header.releaseEe' : 'header.releaseCe', { version: version || '?' });
  const { open, setOpen, container, trigger, onKeyDown } = usePopover();
  const [changing, setChanging] = useState(false);

  const onLogout = async () => {
    setOpen(false);
    // The menu item goes with the menu: Cancel in the question returns the focus to the button.
    trigger.current?.focus();
    if (!(await confirm(t('header.confirmLogout')))) return;
    try {
      await logout();
    } catch (error) {
      handleError(error);
    }
    toast(t('header.loggedOut'));
    await navigate('/login', { force: true });
  };

  // emqx_dashboard_api.erl change_mfa/2: a new secret (shown at the next sign-in) ends every
  // session of the user, this one too; turning MFA off keeps them.
  const onMfa = async (on: boolean) => {
    setOpen(false);
    trigger.current?.focus();
    if (!(await confirm(t(on ? 'header.mfaEnableConfirm' : 'header.mfaDisableConfirm'), { danger: !on }))) return;
    const at = `/users/${encodeURIComponent(session.username)}/mfa`;
    try {
      if (on) await api.post(at, { mechanism: 'totp' });
      else await api.del(at);
    } catch (error) {
      handleError(error);
      return;
    }
    toast(t(on ? 'header.mfaEnabled' : 'header.mfaDisabled'));
    if (!on) return;
    clearSession();
    await navigate('/login', { force: true });
  };

  return (
    <header class="topbar">
      <nav aria-label="breadcrumb" class="crumbs">
        <ul>
          {breadcrumbs(path).map((crumb, i) => (
            <li key={i}>{crumb.path ? <Link href={crumb.path}>{t(crumb.title)}</Link> : <span>{t(crumb.title)}</span>}</li>
          ))}
        </ul>
      </nav>
      <div class="topbar-end">
        <AlarmBanner />
        <div class="user-menu" ref={container} onKeyDown={onKeyDown}>
          <button type="button" ref={trigger} class="secondary outline" aria-haspopup="menu" aria-expanded={open}
            aria-label={t('header.userMenu')} data-test="user-menu" onClick={() => setOpen(!open)}>
            <Icon name="user" /> <span>{username}</span>
          </button>
          {open && (
            <ul role="menu" class="dropdown">
              <li role="none"><small class="muted" data-test="broker-info">{release}</small></li>
              <li role="none"><Link role="menuitem" href="/settings" onClick={() => setOpen(false)} data-test="menu-settings">{t('header.settings')}</Link></li>
              <li role="none"><button type="button" role="menuitem" class="link" data-test="menu-password"
                onClick={() => (setOpen(false), trigger.current?.focus(), setChanging(true))}>{t('header.changePassword')}</button></li>
              {has('dashboardMfa') && (
                <>
                  <li role="none"><button type="button" role="menuitem" class="link" onClick={() => onMfa(true)} data-test="menu-mfa-enable">{t('header.mfaEnable')}</button></li>
                  <li role="none"><button type="button" role="menuitem" class="link" onClick={() => onMfa(false)} data-test="menu-mfa-disable">{t('header.mfaDisable')}</button></li>
                </>
              )}
              <li role="none"><button type="button" role="menuitem" class="link" onClick={onLogout} data-test="menu-logout">{t('header.logout')}</button></li>
            </ul>
          )}
          {changing && <PasswordDialog onClose={() => setChanging(false)} />}
        </div>
      </div>
    </header>
  );
}
