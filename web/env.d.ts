// Side-effect CSS imports are bundled by esbuild into a sibling .css file.
declare module '*.css';
