import fc from "fast-check";
import { expect, inject, it } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    modelRuns: number;
    modelSeed: number;
  }
}

import { modelCommands, runModel } from "../../tests/worker/deployment-model";

// The long run of the deployment model (tests/worker/deployment-model.ts): MODEL_RUNS random
// sequences of up to 40 steps, each followed by every invariant check, from MODEL_SEED (default:
// the clock), stopping at the first failure. `npm run bench:model`.
// A seed that fails becomes a named regression test in tests/worker/deployment-model.test.ts.
it(
  "the deployment engine keeps its invariants over many random sequences",
  async () => {
    const numRuns = inject("modelRuns");
    const seed = inject("modelSeed");
    const started = performance.now();
    let steps = 0;
    let runs = 0;
    const result = await fc.check(
      fc.asyncProperty(modelCommands(40), async (commands) => {
        steps += await runModel(commands);
        runs += 1;
        if (runs % 25 === 0) console.log(`deployment model: ${runs} runs, ${steps} steps so far`);
      }),
      { seed, numRuns, endOnFailure: true },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    console.log(
      `deployment model: ${result.numRuns} runs, ${steps} steps, seed ${seed}, ${seconds} s: ${result.failed ? "FAILED" : "no failure"}`,
    );
    if (result.failed) console.log(fc.defaultReportMessage(result));
    expect(result.failed).toBe(false);
  },
  4 * 60 * 60_000,
);
