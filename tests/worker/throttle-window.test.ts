import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { countHit } from "@/server/data/sign-in-guards";

// The per-address and per-token limits count in a sliding window (migration 0044): a burst
// across a fixed window's edge counts whole, and old hits weigh less as the window slides on.
const W = 600;
const EDGE = Date.parse("2026-06-01T10:00:00.000Z"); // a multiple of 600 s
const db = () => env.DB as unknown as D1Database;

describe("countHit", () => {
  it("counts a burst across a window's edge whole", async () => {
    const key = `test:${crypto.randomUUID()}`;
    let last = 0;
    for (let i = 0; i < 10; i++) last = await countHit(db(), key, EDGE - 5_000 + i * 1_000, W);
    // Five hits before the edge, five after: the tenth sees nearly ten.
    expect(last).toBeGreaterThan(9.9);
    expect(last).toBeLessThanOrEqual(10);
  });

  it("weighs the previous window by what is left of it in the last windowSeconds, and forgets older ones", async () => {
    const key = `test:${crypto.randomUUID()}`;
    for (let i = 0; i < 100; i++) await countHit(db(), key, EDGE - W * 1000 + i, W);
    expect(await countHit(db(), key, EDGE - 1, W)).toBe(101);
    // A quarter into the next window: 1 hit now + 101 × three quarters.
    expect(await countHit(db(), key, EDGE + (W * 1000) / 4, W)).toBeCloseTo(1 + 101 * 0.75, 5);
    // The window after: its one hit weighs (almost) whole; the first window's hundred nothing.
    expect(await countHit(db(), key, EDGE + W * 1000 + 1, W)).toBeCloseTo(1 + (1 - 1 / (W * 1000)), 5);
    // With a window without hits between: nothing before counts.
    expect(await countHit(db(), key, EDGE + 3 * W * 1000, W)).toBe(1);
  });
});
