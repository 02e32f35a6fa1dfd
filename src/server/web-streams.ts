/**
 * `node:stream/web` for csv-parse/stream, which imports these two from it: the Workers runtime
 * has them as globals, and this Worker runs without Node.js compatibility (vite.config.ts and
 * vitest.config.ts alias the module here).
 */
export const TransformStream = globalThis.TransformStream;
export const CountQueuingStrategy = globalThis.CountQueuingStrategy;
