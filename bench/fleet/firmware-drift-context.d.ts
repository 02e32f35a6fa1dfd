// What bench/fleet/vitest.config.ts provides to firmware-drift.bench.test.ts (read with `inject`).
declare module "vitest" {
  export interface ProvidedContext {
    firmwareDriftRadios: number;
  }
}

export {};
