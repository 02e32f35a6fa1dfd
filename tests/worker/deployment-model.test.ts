import fc from "fast-check";
import { describe, it } from "vitest";
import { modelCommands, runModel, targetCommands } from "./deployment-model";

// The deployment engine proven against a model (tests/worker/deployment-model.ts): a fixed seed
// here, so a failure is reproducible; `npm run bench:model` runs many more with fresh seeds.
describe("the deployment engine against its model", () => {
  it("keeps every invariant over random sequences of decisions, radio reports and clock steps", async () => {
    await fc.assert(
      fc.asyncProperty(modelCommands(30), async (commands) => {
        await runModel(commands);
      }),
      { seed: 20261126, numRuns: 25, endOnFailure: true },
    );
  }, 300_000);

  it("keeps them with targets: site rollouts, radios moving mid-rollout, failures and their retries", async () => {
    await fc.assert(
      fc.asyncProperty(targetCommands(30), async (commands) => {
        await runModel(commands);
      }),
      { seed: 20261127, numRuns: 30, endOnFailure: true },
    );
  }, 300_000);
});
