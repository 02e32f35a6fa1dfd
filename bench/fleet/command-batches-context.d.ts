// What bench/fleet/vitest.config.ts provides to command-batches.bench.test.ts.
declare module "vitest" {
  export interface ProvidedContext {
    batchBig: number;
  }
}

export {};
