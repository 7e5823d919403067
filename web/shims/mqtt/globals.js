// Injected where mqtt.js and its dependencies use Node's `process` and `Buffer` globals, and only
// there (the console's own code never sees them): the browser `process` package (its nextTick is
// the one mqtt.js's prebuilt file uses) and the `buffer` package.
import process from 'process/browser.js';
import { Buffer } from 'buffer';

export { process, Buffer };
