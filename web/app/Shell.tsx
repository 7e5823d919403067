/**
 * Everything a logged-in user sees around the screens: redirects, the layout with menu and
 * header, the screens' routes and the not-found page. Loaded as its own chunk after login, so
 * the login page does not carry it.
 */
import { render } from 'preact';
import { useLayoutEffect } from 'react';
import { Redirect, Route, Router, Switch } from 'wouter';
import './shellMessages.ts';
// The config field widgets (duration, bytesize, secret, cert, list) for every screen's forms; kept out of the login bundle.
import '../ui/configFields.tsx';
// Every API error in words (the broker's error codes and known reasons); the login page has its own few.
import '../lib/errorCatalog.ts';
import '../lib/namespace.ts';
import { prime, withoutRequests } from '../lib/api.ts';
import { watchConnection } from '../lib/connection.ts';
import { formatNumber } from '../lib/format.ts';
import { afterPaint, whenIdle } from '../lib/frames.ts';
import { loadCatalogue } from '../lib/i18n.ts';
import { installReauth } from '../lib/reauth.ts';
import { Layout } from './Layout.tsx';
import { NotFound } from './NotFound.tsx';
import { available, components, redirects, screenAt, screens } from './routes.ts';
import { ScreenHost } from './ScreenHost.tsx';
import { loadShellStyles } from './shellStyles.ts';
import { SignInDialog } from './SignInDialog.tsx';
import type { Screen } from '../lib/feature.ts';

/** An in-app path (with or without a query) after the shell's redirects (`/` → `/dashboard/overview`). */
function redirected(path: string): string {
  const at = path.indexOf('?');
  let route = at < 0 ? path : path.slice(0, at);
  for (let hops = 0; redirects[route] && hops < 5; hops++) route = redirects[route];
  return at < 0 ? route : route + path.slice(at);
}

/** The screen an in-app path (with or without a query, maybe redirected) shows. */
function screenOf(path: string) {
  return screenAt(redirected(path).split('?')[0]);
}

/**
 * While the login form waits: the shell's stylesheet and catalogue, and the chunk of the screen
 * at `path` (where sign-in leads), so that what follows Sign in is no waterfall; once they are
 * in, a rehearsal of the shell and that screen in idle time.
 */
export function warm(path: string) {
  // Applied, not only fetched: the login page looks the same under it (tests/e2e/login-load.test.ts),
  // and the rehearsal then lays the shell out with the styles it will have. Rehearsed under the
  // login page's styles only, the frame after sign-in spent 11 to 37 ms in layout (the fonts and
  // sizes only the shell uses were new to the page), about 3 ms after this (headless Chromium's
  // trace); sign in → first card came about 11 ms sooner (medians of 16 sign-ins).
  const styles = loadShellStyles();
  const catalogue = loadCatalogue();
  // The first number format loads the locale's data (about 90 ms here): not on the first card.
  formatNumber(0);
  const screen = screenOf(path);
  const chunk = screen ? components.get(screen.path)?.preload() : undefined;
  // One handler for both loads: a part that failed is loaded again after sign-in, and shows its error there.
  void Promise.all([styles, catalogue, chunk]).then(() => {
    if (screen && available(screen)) whenIdle(() => rehearse(redirected(path), screen));
  }, () => undefined);
}

/**
 * Renders the layout and `screen` (at `path`, with no data) out of sight and removes them, in one
 * task: the code of the render after sign-in has run once, which took that render from about 17
 * to 11 ms (performance marks around it, headless Chromium). Nothing of it is painted, no request leaves (`withoutRequests`), and
 * no effect after paint runs (the components are gone by then); the layout effects run and are
 * cleaned up. It lays out under the shell's stylesheet, applied by then (`warm`).
 */
function rehearse(path: string, screen: Screen) {
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  host.style.cssText = 'position:fixed;inset:0;visibility:hidden;contain:strict;pointer-events:none';
  document.body.append(host);
  const here = (): [string, (to: string) => void] => [path, () => undefined];
  try {
    withoutRequests(() => {
      render(<Router hook={here}><Layout><ScreenHost screen={screen} params={{}} /></Layout></Router>, host);
      // Laid out as well: the words it shows are shaped once.
      host.getBoundingClientRect();
      render(null, host);
    });
  } catch {
    // Only a head start: the real render after sign-in shows what fails.
  } finally {
    host.remove();
  }
}

/** How long sign-in waits for the first screen's first answer before it shows the screen loading. */
const ANSWERS_MS = 250;

/**
 * Signed in and going to `path`: its screen's first requests go out now, alongside its chunk.
 * Gives where to go, the path after the redirects (a `<Redirect>` in the shell would show the
 * screen only after a paint of nothing), and `ready`, settled once the screen's chunk is in and
 * the answer to its first request too (or after ANSWERS_MS; the overview's figure cards): the
 * shell and the screen then first render with that data, not around a loading state, and the
 * other answers follow one frame apart in the order the screen declares them (waiting for all of
 * them, the 140 KB of the charts' samples among them, put the first card later).
 */
export function primeScreen(path: string): { to: string; ready: Promise<void> } {
  const screen = screenOf(path);
  let ready = Promise.resolve();
  if (screen && available(screen)) {
    // All leave now, and each answer is drawn in a frame of its own, in the order declared: the
    // next one reaches the screen in the task after the frame that drew the one before (or
    // ANSWERS_MS after its turn, as in a hidden tab or for a slow answer). Drawn together, the
    // charts' 140 KB of samples put the overview's cards a frame or two later, and the node list
    // and the license, each a render of the overview, held back the frame of its first chart
    // (about 20 ms of the 40 ms task that drew it, headless Chromium's trace).
    const [first, ...rest] = screen.requests?.() ?? [];
    const leading = first ? prime(...first) : Promise.resolve();
    let drawn: Promise<unknown> = leading;
    for (const [request, params] of rest) {
      const turn = drawn.then(() => new Promise<void>((resolve) => {
        afterPaint(resolve);
        setTimeout(resolve, ANSWERS_MS);
      }));
      const answer = prime(request, params, turn);
      // Handed once both its turn and its answer are in; not waited for past ANSWERS_MS.
      drawn = Promise.race([Promise.all([turn, answer]), turn.then(() => new Promise((resolve) => setTimeout(resolve, ANSWERS_MS)))]);
    }
    const chunk = components.get(screen.path)?.preload().catch(() => undefined);
    const bounded = new Promise<void>((resolve) => {
      setTimeout(resolve, ANSWERS_MS);
      void leading.then(() => resolve());
    });
    ready = Promise.all([chunk, bounded]).then(() => undefined);
  }
  return { to: redirected(path), ready };
}

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
