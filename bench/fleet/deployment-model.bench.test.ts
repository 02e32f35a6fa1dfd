import fc from "fast-check";
import { expect, it } from "vitest";
import { modelCommands, runModel } from "../../tests/worker/deployment-model";

// The long run of the deployment model (tests/worker/deployment-model.ts): MODEL_RUNS random
// sequences of up to 40 steps, each followed by every invariant check, from MODEL_SEED (default:
// the clock), stopping at the first failure (MODEL_SHRINK=1 shrinks it, slowly). `npm run bench:model`.
// A seed that fails becomes a named regression test in tests/worker/deployment-model.test.ts.
it(
  "the deployment engine keeps its invariants over many random sequences",
  async () => {
    const numRuns = Number(process.env.MODEL_RUNS ?? 1000);
    const seed = Number(process.env.MODEL_SEED ?? Date.now() % 2 ** 31);
    const started = performance.now();
    let steps = 0;
    let runs = 0;
    const result = await fc.check(
      fc.asyncProperty(modelCommands(40), async (commands) => {
        steps += await runModel(commands);
        runs += 1;
        if (runs % 25 === 0) console.log(`deployment model: ${runs} runs, ${steps} steps so far`);
      }),
      { seed, numRuns, endOnFailure: process.env.MODEL_SHRINK !== "1" },
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
