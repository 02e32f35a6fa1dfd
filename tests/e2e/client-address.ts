import { test as base } from "@playwright/test";

export * from "@playwright/test";

let count = 0;

/**
 * Every spec imports `test` from here. Each test is its own client address, as real users
 * are, so the server's per-address throttles (sign-in, codes, passkeys, single sign-on) count
 * one test's attempts rather than the whole suite's: locally every request comes from one
 * address, and a growing suite would otherwise trip the limits it is not testing.
 */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    count += 1;
    const address = `10.${testInfo.workerIndex % 250}.${Math.floor(count / 250) % 250}.${(count % 250) + 1}`;
    await use({ ...extraHTTPHeaders, "CF-Connecting-IP": address });
  },
});
