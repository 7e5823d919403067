// Registers happy-dom's window, document and fetch as globals for unit and UI tests.
import { GlobalRegistrator } from '@happy-dom/global-registrator';
if (!(globalThis as { happyDOM?: unknown }).happyDOM) GlobalRegistrator.register({ url: 'http://127.0.0.1:18083/', width: 1280, height: 800 });
