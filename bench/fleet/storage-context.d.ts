// What bench/fleet/vitest.config.ts provides to storage.bench.test.ts (`inject`).
declare module "vitest" {
  export interface ProvidedContext {
    storageRadios: number;
  }
}

export {};
