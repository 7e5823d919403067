/**
 * The console's root: hash routing with the unsaved-edits guard, the public login route, and the
 * guard in front of the logged-in shell (a lazy chunk with its own stylesheets: the login page
 * loads without them).
 */
import { Suspense, useLayoutEffect, useMemo, useState } from 'react';
import { Router, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
// The broker profile registers its request pruning before the first call.
import '../lib/broker.ts';
import { cleanUrl, currentPath, navigate, seenLocation, useGuardedLocation } from '../lib/navigation.ts';
import { clearSession, session } from '../lib/session.ts';
import { Confirm } from '../ui/Confirm.tsx';
import { Loading } from '../ui/States.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { ahead } from './ahead.ts';
import { Login } from './Login.tsx';
import { Shell } from './shellChunk.ts';

/** The shell's location: on the login page, the screen drawn under it (ahead.ts), if any. */
const useShellLocation = seenLocation((path) => (path === '/login' && ahead.path) || path);

/**
 * Guard of spec part1 §2: no stored token → forget user and edition, cancel pending requests,
 * and go to login with the page to return to. On the login page, the shell drawn ahead of
 * sign-in (ahead.ts), out of sight and out of reach; the same tree is shown once signed in.
 */
function Protected({ onLogin }: { onLogin: boolean }) {
  const { token } = useSnapshot(session);
  const { path: drawnAhead } = useSnapshot(ahead);
  const [path] = useLocation();
  // Before the first paint: a cold load of `/` without a session shows the login form in the
  // same frame instead of an empty page first.
  useLayoutEffect(() => {
    if (token || onLogin) return;
    const back = currentPath();
    clearSession();
    void navigate(`/login?to=${encodeURIComponent(back)}`, { replace: true, force: true });
  }, [token, path, onLogin]);
  // Made once: showing the shell drawn ahead renders none of it again.
  const shell = useMemo(() => (
    <Router hook={useShellLocation}>
      <Suspense fallback={<Loading />}>
        <Shell />
      </Suspense>
    </Router>
  ), []);
  if (onLogin ? !drawnAhead : !token) return null;
  // Out of sight by `visibility: hidden`, which also takes it out of the tab order, the pointer's
  // reach and the accessibility tree; showing it changes one class.
  return <div class={onLogin ? 'shell-host ahead' : 'shell-host'}>{shell}</div>;
}

export function App() {
  // Once, before the router first reads the URL: a query before the hash moves into it.
  useState(cleanUrl);
  return (
    <Router hook={useGuardedLocation}>
      <Pages />
      <Toasts />
      <Confirm />
    </Router>
  );
}

/** The login page, with the shell before it in the same place whether it is drawn ahead or shown. */
function Pages() {
  const [path] = useLocation();
  const onLogin = path === '/login';
  return (
    <>
      <Protected onLogin={onLogin} />
      {onLogin && <Login />}
    </>
  );
}
