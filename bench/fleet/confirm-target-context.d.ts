// What bench/fleet/vitest.config.ts provides to confirm-target.bench.test.ts.
declare module "vitest" {
  export interface ProvidedContext {
    confirmTargetBig: number;
  }
}

export {};
