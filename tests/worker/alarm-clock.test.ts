import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "@/server/env";
import { armClock } from "@/server/fleet/arm-deployment-clock";
import { armCommandClock } from "@/server/fleet/command-clock";

const bindings = env as unknown as Env;

/** When the clock's alarm is set (ms), or null. */
async function alarmOf(namespace: NonNullable<Env["COMMAND_CLOCK"]>, name: string): Promise<number | null> {
  const stub = namespace.get(namespace.idFromName(name));
  return runInDurableObject(stub, (_instance, state: { storage: { getAlarm(): Promise<number | null> } }) =>
    state.storage.getAlarm(),
  );
}

describe.each([
  { clock: "command", arm: armCommandClock, binding: "COMMAND_CLOCK" as const, name: "commands" },
  { clock: "deployment", arm: armClock, binding: "DEPLOYMENT_CLOCK" as const, name: "clock" },
])("the $clock clock", ({ arm, binding, name }) => {
  const namespace = () => {
    const found = bindings[binding];
    if (!found) throw new Error(`${binding} is not bound`);
    return found;
  };

  it("wakes at the earliest time asked for, never later", async () => {
    const soon = Date.now() + 60_000;
    await arm(bindings, new Date(soon + 30_000));
    await arm(bindings, new Date(soon));
    expect(await alarmOf(namespace(), name)).toBe(soon);
    await arm(bindings, new Date(soon + 120_000));
    expect(await alarmOf(namespace(), name)).toBe(soon);
  });

  it("runs its sweep when the alarm fires and sleeps when nothing is due", async () => {
    await arm(bindings, new Date(Date.now() + 5_000));
    const stub = namespace().get(namespace().idFromName(name));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // An empty database has nothing due: no alarm is set again.
    expect(await alarmOf(namespace(), name)).toBeNull();
  });

  it("does nothing, and does not fail, where the clock is not bound", async () => {
    await expect(arm({ ...bindings, [binding]: undefined }, new Date())).resolves.toBeUndefined();
  });
});
