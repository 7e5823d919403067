/**
 * Everything a logged-in user sees around the screens: redirects, the layout with menu and
 * header, the screens' routes and the not-found page. Loaded as its own chunk after login, so
 * the login page does not carry it.
 */
import { useLayoutEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import './shellMessages.ts';
// The config field widgets (duration, bytesize, secret, cert, list) for every screen's forms; kept out of the login bundle.
import '../ui/configFields.tsx';
// Every API error in words (the broker's error codes and known reasons); the login page has its own few.
import '../lib/errorCatalog.ts';
import { watchConnection } from '../lib/connection.ts';
import { installReauth } from '../lib/reauth.ts';
import { Layout } from './Layout.tsx';
import { NotFound } from './NotFound.tsx';
import { redirects, screens } from './routes.ts';
import { ScreenHost } from './ScreenHost.tsx';
import { SignInDialog } from './SignInDialog.tsx';

export default function Shell() {
  // While the shell is shown, an expired session is signed in again over the screen.
  useLayoutEffect(installReauth, []);
  // and an outage is watched, to say when the broker is back and reload what the screen shows.
  useLayoutEffect(watchConnection, []);
  return (
    <>
    <Switch>
      {Object.entries(redirects).map(([from, to]) => (
        <Route key={from} path={from}><Redirect to={to} replace /></Route>
      ))}
      <Route>
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
      </Route>
    </Switch>
    <SignInDialog />
    </>
  );
}
