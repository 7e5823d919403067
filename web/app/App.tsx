/**
 * The console's root: hash routing with the unsaved-edits guard, the public login route,
 * redirects, and the login-required screens inside the layout.
 */
import { useEffect } from 'react';
import { Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { currentPath, navigate, useGuardedLocation } from '../lib/navigation.ts';
import { clearSession, session } from '../lib/session.ts';
import { Confirm } from '../ui/Confirm.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { Layout } from './Layout.tsx';
import { Login } from './Login.tsx';
import { NotFound } from './NotFound.tsx';
import { redirects, screens } from './routes.ts';
import { ScreenHost } from './ScreenHost.tsx';

/**
 * Guard of spec part1 §2: no stored token → forget user and edition, cancel pending requests,
 * and go to login with the page to return to.
 */
function Protected() {
  const { token } = useSnapshot(session);
  const [path] = useLocation();
  useEffect(() => {
    if (token) return;
    const back = currentPath();
    clearSession();
    void navigate(`/login?to=${encodeURIComponent(back)}`, { replace: true, force: true });
  }, [token, path]);
  if (!token) return null;
  return (
    <Layout>
      <Switch>
        {screens.map((screen) => (
          <Route key={screen.path} path={screen.path}>
            {(params) => <ScreenHost screen={screen} params={params} />}
          </Route>
        ))}
        <Route><NotFound /></Route>
      </Switch>
    </Layout>
  );
}

export function App() {
  return (
    <Router hook={useGuardedLocation}>
      <Switch>
        <Route path="/login"><Login /></Route>
        {Object.entries(redirects).map(([from, to]) => (
          <Route key={from} path={from}><Redirect to={to} replace /></Route>
        ))}
        <Route><Protected /></Route>
      </Switch>
      <Toasts />
      <Confirm />
    </Router>
  );
}
