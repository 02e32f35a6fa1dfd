// What bench/fleet/vitest.config.ts provides to fleet.bench.test.ts (read with `inject`).
declare module "vitest" {
  export interface ProvidedContext {
    fleetBig: number;
    fleetMid: number;
  }
}

export {};
