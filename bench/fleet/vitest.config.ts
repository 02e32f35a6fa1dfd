import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { clientManifest } from "../../tooling/client-manifest.ts";
import { pageStyles } from "../../tooling/page-styles/plugin.ts";

// `npm run bench:fleet`: the fleet benchmarks run inside workerd with local D1 (like the
// worker tests), so they time the Worker's own code paths: confirm, counts, check-in.
export default defineConfig(async () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const migrations = await readD1Migrations(`${root}/migrations`);
  return {
    root,
    resolve: { alias: { "@": `${root}/src` } },
    plugins: [
      clientManifest(),
      // The renderer inlines each page's own sheet (src/server/render/page-styles.ts).
      pageStyles({ root: root }),
      cloudflareTest({
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      // `npm run bench:model` runs the model alone (BENCH_ONLY); bench:fleet runs the rest.
      include: [process.env.BENCH_ONLY ?? "bench/fleet/*.bench.test.ts"],
      exclude: process.env.BENCH_ONLY ? [] : ["bench/fleet/deployment-model.bench.test.ts"],
      // The model run's size and seed reach the Workers runtime through `inject` (its process.env is not the shell's).
      provide: {
        modelRuns: Number(process.env.MODEL_RUNS ?? 1000),
        modelSeed: Number(process.env.MODEL_SEED ?? Date.now() % 2 ** 31),
        // bench/fleet/storage.bench.test.ts: radios whose two years of history are generated.
        storageRadios: Number(process.env.STORAGE_RADIOS ?? 2000),
        // fleet.bench.test.ts: the big account's radios, and an optional middle one (issue 24: 100,000 vs 1,000,000).
        fleetBig: Number(process.env.FLEET_BIG ?? 100_000),
        fleetMid: Number(process.env.FLEET_MID ?? 0),
        // The check-in bench's sizes (bench/fleet/check-ins.bench.test.ts).
        checkInsDayRadios: Number(process.env.CHECKINS_DAY_RADIOS ?? 50),
        checkInsPerShard: Number(process.env.CHECKINS_PER_SHARD ?? 300),
        checkInsHours: Number(process.env.CHECKINS_HOURS ?? 1),
        // command-batches.bench.test.ts: the commands in the big batch (issue 25: 100,000).
        batchBig: Number(process.env.BATCH_BIG ?? 100_000),
        // confirm-target.bench.test.ts: the radios of the big target (issue 25: 100,000 vs 100).
        confirmTargetBig: Number(process.env.CONFIRM_TARGET_BIG ?? 100_000),
        // firmware-drift.bench.test.ts: the radios of the account whose firmware drift is counted (issue 26).
        firmwareDriftRadios: Number(process.env.FIRMWARE_DRIFT_RADIOS ?? 100_000),
      },
      setupFiles: ["tests/worker/setup.ts"],
      testTimeout: 600_000,
      hookTimeout: 600_000,
    },
  };
});
