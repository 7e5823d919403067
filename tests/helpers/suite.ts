// Suite set-up for uvu: a failing `before` would end the suite without a failed test, so the
// set-up's error is kept and every test fails with it.
import type { Test } from 'uvu';

export function setUpOrFail(suite: Test, setUp: () => Promise<void>): void {
  let setupError: unknown;
  suite.before(async () => {
    try {
      await setUp();
    } catch (err) {
      setupError = err;
    }
  });
  suite.before.each(() => {
    if (setupError) throw setupError;
  });
}
