// web/lib/navigation.ts preloadable: a lazy part asked for ahead renders in its parent's pass once
// it is in, where `lazy` alone commits its fallback first (the frame after sign-in that showed the
// shell around a loading screen). Before it is in, it suspends as `lazy` does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { render } from 'preact';
import { Suspense, type ComponentType } from 'react';
import { preloadable } from '../../web/lib/navigation.ts';

const Part = () => <p data-test="part">in</p>;
const host = () => {
  const root = document.createElement('div');
  document.body.append(root);
  return root;
};
const shown = (root: HTMLElement) => root.querySelector('[data-test=part]') ? 'part' : root.querySelector('[data-test=fallback]') ? 'fallback' : 'nothing';
const tree = (C: ComponentType) => (
  <Suspense fallback={<p data-test="fallback">…</p>}>
    <C />
  </Suspense>
);

test('preloaded: the first render commits the part itself, never the fallback', async () => {
  let loads = 0;
  const Lazy = preloadable(async () => (loads++, { default: Part }));
  await Lazy.preload();
  const root = host();
  render(tree(Lazy), root);
  assert.is(shown(root), 'part', 'in the same pass');
  await Lazy.preload();
  assert.is(loads, 1, 'loaded once');
  render(null, root);
  root.remove();
});

test('not preloaded: suspends (no part in the first pass), then the part once it is in; a failed load is tried again by the next preload', async () => {
  let fail = true;
  const Lazy = preloadable(async () => {
    if (fail) throw new Error('offline');
    return { default: Part };
  });
  await Lazy.preload().then(() => assert.unreachable('a failed load rejects'), (error: Error) => assert.is(error.message, 'offline'));
  fail = false;
  const root = host();
  render(tree(Lazy), root);
  assert.is.not(shown(root), 'part', 'suspended');
  for (let i = 0; i < 20 && shown(root) !== 'part'; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.is(shown(root), 'part');
  // The parent renders again (new props, a new element): the part stays mounted, not replaced by
  // a new one now that the chunk is in (a screen would lose its state and its drawn charts).
  const first = root.querySelector('[data-test=part]');
  render(tree(Lazy), root);
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(root.querySelector('[data-test=part]') === first, 'the same element');
  render(null, root);
  root.remove();
});

test.run();
