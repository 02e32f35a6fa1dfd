// The check-in bench's sizes, provided by bench/fleet/vitest.config.ts (the shell's env does not reach workerd).
declare module "vitest" {
  export interface ProvidedContext {
    checkInsDayRadios: number;
    checkInsPerShard: number;
    checkInsHours: number;
  }
}

export {};
