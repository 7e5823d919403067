/**
 * The console's root: hash routing with the unsaved-edits guard, the public login route, and the
 * guard in front of the logged-in shell (a lazy chunk with its own stylesheets: the login page
 * loads without them).
 */
import { Suspense, useLayoutEffect, useState } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
// The broker profile registers its request pruning before the first call.
import '../lib/broker.ts';
import { cleanUrl, currentPath, navigate, useGuardedLocation } from '../lib/navigation.ts';
import { clearSession, session } from '../lib/session.ts';
import { Confirm } from '../ui/Confirm.tsx';
import { Loading } from '../ui/States.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { Login } from './Login.tsx';
import { Shell } from './shellChunk.ts';

/**
 * Guard of spec part1 §2: no stored token → forget user and edition, cancel pending requests,
 * and go to login with the page to return to.
 */
function Protected() {
  const { token } = useSnapshot(session);
  const [path] = useLocation();
  // Before the first paint: a cold load of `/` without a session shows the login form in the
  // same frame instead of an empty page first.
  useLayoutEffect(() => {
    if (token) return;
    const back = currentPath();
    clearSession();
    void navigate(`/login?to=${encodeURIComponent(back)}`, { replace: true, force: true });
  }, [token, path]);
  if (!token) return null;
  return (
    <Suspense fallback={<Loading />}>
      <Shell />
    </Suspense>
  );
}

export function App() {
  // Once, before the router first reads the URL: a query before the hash moves into it.
  useState(cleanUrl);
  return (
    <Router hook={useGuardedLocation}>
      <Switch>
        <Route path="/login"><Login /></Route>
        <Route><Protected /></Route>
      </Switch>
      <Toasts />
      <Confirm />
    </Router>
  );
}
