// Stands in for what only runs in Node (the TCP, TLS and SOCKS transports, the `ws` package and
// Node built-ins): in a browser mqtt.js connects over the page's WebSocket only.
