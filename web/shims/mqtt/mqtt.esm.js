// The console's `import('mqtt')`: mqtt.js's own build/ output bundled for the browser by
// build.mjs with the stand-ins of this folder (see README.md). Like mqtt.js's prebuilt browser
// file, the default export carries the whole API (`mqtt.connect`).
import * as mqtt from 'mqtt/mqtt';

export default mqtt;
