// wouter imports React's CJS shim for useSyncExternalStore; preact/compat has the hook itself.
export { useSyncExternalStore } from 'preact/compat';
