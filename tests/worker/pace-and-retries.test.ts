import { describe, expect, it } from "vitest";
import {
  afterFailure,
  type Pace,
  pacedAllowance,
  pacedOpenedTo,
  paceSchema,
  retriesSchema,
} from "@/schema/fleet/pace-and-retries";
import { languages } from "@/schema/languages";
import { translatorFor } from "@/server/i18n/i18n";

// The plan's retries and pace (issue 25) as rules a simulated clock can drive: what a failure
// report means for a radio, and how far a paced phase has opened after so many minutes.

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

describe("plan fields", () => {
  it("accepts retries and a pace in range", () => {
    expect(retriesSchema.parse({ attempts: 5, backoffMinutes: 1440 })).toEqual({ attempts: 5, backoffMinutes: 1440 });
    expect(paceSchema.parse({ exponential: { start: 10, factor: 1.5 } })).toEqual({ exponential: { start: 10, factor: 1.5 } });
  });

  it("refuses out-of-range values with a translated message each", () => {
    expect(messages(retriesSchema.safeParse({ attempts: 6, backoffMinutes: 5 }))).toEqual(["validation.RetryAttempts"]);
    expect(messages(retriesSchema.safeParse({ attempts: -1, backoffMinutes: 5 }))).toEqual(["validation.RetryAttempts"]);
    expect(messages(retriesSchema.safeParse({ attempts: 1, backoffMinutes: 0 }))).toEqual(["validation.RetryBackoff"]);
    expect(messages(paceSchema.safeParse({ maximumPerMinute: 0 }))).toEqual(["validation.PaceRate"]);
    expect(messages(paceSchema.safeParse({}))).toEqual(["validation.PaceRate"]);
    expect(messages(paceSchema.safeParse({ exponential: { start: 10, factor: 1 } }))).toEqual(["validation.PaceFactor"]);
    for (const language of languages) {
      const t = translatorFor(language, "default");
      for (const key of ["RetryAttempts", "RetryBackoff", "PaceRate", "PaceFactor"]) {
        expect(t(`validation.${key}`)).not.toBe(`validation.${key}`);
      }
    }
  });
});

describe("retries", () => {
  const at = new Date("2026-11-26T12:00:00Z");

  it("retries after a doubling pause, then counts the failure once the attempts are spent", () => {
    const retries = { attempts: 3, backoffMinutes: 5 };
    const minutes = [0, 1, 2].map((sofar) => {
      const verdict = afterFailure(retries, sofar, at);
      if (verdict.kind !== "retry") throw new Error(`attempt ${sofar + 1} should retry`);
      expect(verdict.attempt).toBe(sofar + 1);
      return (verdict.retryAt.getTime() - at.getTime()) / 60_000;
    });
    expect(minutes).toEqual([5, 10, 20]);
    expect(afterFailure(retries, 3, at)).toEqual({ kind: "failed" });
  });

  it("fails at once without retries or with zero attempts", () => {
    expect(afterFailure(undefined, 0, at)).toEqual({ kind: "failed" });
    expect(afterFailure({ attempts: 0, backoffMinutes: 5 }, 0, at)).toEqual({ kind: "failed" });
  });
});

describe("pace", () => {
  const range = { from: 2_000, to: 6_000 };

  /** Radios of the phase offered by each simulated minute, as the bucket range over evenly spread radios. */
  function offeredPerMinute(pace: Pace, targeted: number, minutes: number): number[] {
    const offered = (minute: number) =>
      Math.floor(((pacedOpenedTo(range, targeted, pace, minute) - range.from) * targeted) / (range.to - range.from));
    const perMinute: number[] = [];
    let before = 0;
    for (let minute = 0; minute < minutes; minute++) {
      const now = offered(minute);
      perMinute.push(now - before);
      before = now;
    }
    return perMinute;
  }

  it("never offers more than the maximum a minute, and reaches every radio in the end", () => {
    const perMinute = offeredPerMinute({ maximumPerMinute: 300 }, 1_000, 6);
    expect(Math.max(...perMinute)).toBeLessThanOrEqual(300);
    expect(perMinute.reduce((a, b) => a + b, 0)).toBe(1_000);
    expect(pacedOpenedTo(range, 1_000, { maximumPerMinute: 300 }, 3)).toBe(range.to);
  });

  it("grows exponentially up to the cap", () => {
    const pace = { maximumPerMinute: 50, exponential: { start: 10, factor: 2 } };
    expect([0, 1, 2, 3, 4].map((m) => pacedAllowance(pace, m))).toEqual([10, 30, 70, 120, 170]);
    expect(Math.max(...offeredPerMinute(pace, 10_000, 30))).toBeLessThanOrEqual(50);
  });

  it("opens the whole phase at once without a pace or radios, and nothing before it opens", () => {
    expect(pacedOpenedTo(range, 1_000, undefined, 0)).toBe(range.to);
    expect(pacedOpenedTo(range, 0, { maximumPerMinute: 1 }, 0)).toBe(range.to);
    expect(pacedOpenedTo(range, 1_000, { maximumPerMinute: 1 }, -1)).toBe(range.from);
  });
});
