/// <reference types="@cloudflare/vitest-plugin/types" />
import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env as WorkerEnv } from "@/server/env";

// The bindings the workerd tests see: the Worker's own, plus the migrations to apply.
declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
