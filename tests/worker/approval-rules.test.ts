import { describe, expect, it } from "vitest";
import {
  type ApprovalRefusal,
  type AwaitingDeployment,
  approvalExpiresAt,
  approvalSettingSchema,
  decideApproval,
  isApprovalExpired,
} from "@/schema/fleet/approval";
import { languages } from "@/schema/languages";
import { translatorFor } from "@/server/i18n/i18n";

// Four-eyes approval (issue 25) as rules a simulated clock drives: who may decide, when it
// expires, what approval and rejection lead to, and a translated refusal for each "no".

const confirmedAt = new Date("2026-11-26T12:00:00Z");
const hours = (n: number) => new Date(confirmedAt.getTime() + n * 60 * 60_000);
const awaiting = (over: Partial<AwaitingDeployment> = {}): AwaitingDeployment => ({
  authorId: "usr_author",
  state: "awaiting-approval",
  version: 2,
  expiresAt: approvalExpiresAt(confirmedAt, { required: true, expiryHours: 24 }),
  startAt: null,
  ...over,
});
const decide = (d: AwaitingDeployment, deciderId: string, approve = true, now = hours(1), version: number | undefined = 2) =>
  decideApproval(d, { deciderId, approve, version, now });

describe("approval setting", () => {
  it("accepts 1 to 168 hours and refuses anything else with a translated message", () => {
    expect(approvalSettingSchema.parse({ required: true, expiryHours: 168 }).expiryHours).toBe(168);
    for (const expiryHours of [0, 169, 1.5]) {
      const result = approvalSettingSchema.safeParse({ required: true, expiryHours });
      expect(result.success).toBe(false);
      if (!result.success && expiryHours !== 1.5) expect(result.error.issues[0]?.message).toBe("validation.ApprovalExpiry");
    }
  });
});

describe("deciding", () => {
  it("lets a second person approve: it runs at once, or is scheduled when its start lies ahead", () => {
    expect(decide(awaiting(), "usr_second")).toEqual({ ok: true, state: "running" });
    expect(decide(awaiting({ startAt: hours(5) }), "usr_second")).toEqual({ ok: true, state: "scheduled" });
    expect(decide(awaiting({ startAt: hours(0.5) }), "usr_second")).toEqual({ ok: true, state: "running" });
  });

  it("cancels the deployment when the second person rejects it", () => {
    expect(decide(awaiting(), "usr_second", false)).toEqual({ ok: true, state: "cancelled" });
  });

  it("never lets the author decide, neither approve nor reject", () => {
    expect(decide(awaiting(), "usr_author")).toEqual({ ok: false, refusal: "author" });
    expect(decide(awaiting(), "usr_author", false)).toEqual({ ok: false, refusal: "author" });
  });

  it("refuses a stale version, a deployment no longer waiting, and a decision after the expiry", () => {
    expect(decide(awaiting(), "usr_second", true, hours(1), 1)).toEqual({ ok: false, refusal: "stale" });
    expect(decide(awaiting({ state: "running" }), "usr_second")).toEqual({ ok: false, refusal: "not-awaiting" });
    expect(decide(awaiting(), "usr_second", true, hours(24))).toEqual({ ok: false, refusal: "expired" });
  });

  it("has a translated refusal for every reason in every language", () => {
    const refusals: ApprovalRefusal[] = ["author", "not-awaiting", "expired", "stale"];
    for (const language of languages) {
      const t = translatorFor(language, "default");
      for (const key of [...refusals.map((r) => `errors.approval.${r}`), "validation.ApprovalExpiry"]) {
        expect(t(key)).not.toBe(key);
      }
    }
  });
});

describe("expiry by the clock", () => {
  it("expires exactly at confirmed + expiry hours, and only while awaiting", () => {
    const d = awaiting();
    expect(isApprovalExpired(d, hours(23.99))).toBe(false);
    expect(isApprovalExpired(d, hours(24))).toBe(true);
    expect(isApprovalExpired(awaiting({ state: "running" }), hours(48))).toBe(false);
  });
});
