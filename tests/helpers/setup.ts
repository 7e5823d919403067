// Registers happy-dom's window, document and fetch as globals for unit and UI tests.
import { GlobalRegistrator } from '@happy-dom/global-registrator';
if (!(globalThis as { happyDOM?: unknown }).happyDOM) {
  GlobalRegistrator.register({ url: 'http://127.0.0.1:18083/', width: 1280, height: 800 });
  // UI tests talk to tests/helpers/fakeApi.ts only: a request outside a fake (one still in flight
  // when a test restores its fake) fails as an unreachable server would, without a real connection.
  globalThis.fetch = (async () => {
    throw new TypeError('Failed to fetch');
  }) as typeof fetch;
}
