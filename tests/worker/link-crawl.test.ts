import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { browserCookie, createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// Honest navigation (issue 9, §5): an owner opens every page reachable by a link from the
// welcome page, following every same-origin link of every page, and no link may lead to a
// 404 (nor to a server error). A screen that does not exist yet must not be linked to.

const PAGE_LIMIT = 400;
/** Sort and paging links differ by their query only: a few of each page are enough. */
const QUERY_VARIANTS_PER_PATH = 2;

/** The same-origin hrefs of a page's <a> elements, without fragments. */
function linksOf(html: string): string[] {
  const hrefs = [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) =>
    (m[1] ?? "").replaceAll("&amp;", "&").replaceAll("&#x27;", "'"),
  );
  const out: string[] = [];
  for (const href of hrefs) {
    if (href === "" || href.startsWith("#") || href.startsWith("mailto:")) continue;
    const url = new URL(href, ORIGIN);
    if (url.origin !== ORIGIN) continue;
    url.hash = "";
    out.push(url.pathname + url.search);
  }
  return out;
}

let cookie: string;

beforeAll(async () => {
  const dealer = await createOrganization("Crawl Communications");
  const customer = await createOrganization("Crawl Transit", dealer);
  const accountId = await createAccount(customer, "Crawl Bus Operations", "advanced");
  await createAccount(dealer, "Crawl Demo Fleet", "essential");
  const owner = await createUser({ role: "owner", orgId: dealer });
  await createUser({ role: "viewer", orgId: customer });
  const buttons = JSON.stringify({ side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" });
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_crawl', ?, 'Crawl plan', 10, '2026-01-01')",
    ).bind(customer),
    env.DB.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_crawl', 'sub_crawl', ?, 2)",
    ).bind(accountId),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_crawl', ?, 'Crawl Depot')").bind(accountId),
    env.DB.prepare(
      "INSERT INTO locations (id, account_id, site_id, name) VALUES ('loc_crawl', ?, 'site_crawl', 'Dispatch')",
    ).bind(accountId),
    env.DB.prepare(
      "INSERT INTO profiles (id, org_id, account_id, type, name, settings) VALUES ('prf_crawl', ?, ?, 'buttons', 'Crawl radios', ?), ('prf_crawl_tpl', ?, NULL, 'buttons', 'Crawl template', ?)",
    ).bind(customer, accountId, buttons, dealer, buttons),
    env.DB.prepare("INSERT INTO rules (id, account_id, name, priority) VALUES ('rule_crawl', ?, 'Crawl rule', 1)").bind(
      accountId,
    ),
    env.DB.prepare("INSERT INTO rule_profiles (rule_id, profile_id, position) VALUES ('rule_crawl', 'prf_crawl', 1)"),
    env.DB.prepare("INSERT INTO rule_sets (account_id, version) VALUES (?, 1)").bind(accountId),
    env.DB.prepare(
      "INSERT INTO identity_providers (id, org_id, name, issuer, client_id, email_domains) VALUES ('idp_crawl', ?, 'Crawl SSO', 'https://idp.crawl.test', 'crawl', '[\"crawl.test\"]')",
    ).bind(dealer),
    env.DB.prepare(
      `INSERT INTO radio_groups (id, account_id, name, filter, created_at, updated_at)
       VALUES ('grp_crawl', ?, 'Crawl depot radios', '{"siteId":"site_crawl"}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
    ).bind(accountId),
    // A ready firmware package of the dealer (issue 26): its page and delete page are linked from the lists.
    env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, notes, state, object_key, size, sha256, signature, key_id, created_by)
       VALUES ('fw_crawl', ?, '2.0.0', '["XR-7"]', 'Crawl notes', 'ready', 'packages/fw_crawl', 1024, ?, 'c2ln', 'fwk_crawl', 'crawl')`,
    ).bind(dealer, "a".repeat(64)),
  ]);
  // A change in the activity log, so the log and the account home link to what it names.
  const renamed = await request("/api/sites.update", {
    method: "POST",
    body: JSON.stringify({ accountId, id: "site_crawl", version: 1, name: "Crawl Depot North", address: "", timezone: null }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: await sessionCookie(owner.email) },
  });
  expect(renamed.status).toBe(200);
  // As a browser holds them: every page is begun on the session hint (middleware/session.ts).
  cookie = await browserCookie(owner.email);
});

describe("every link of every signed-in page, as an owner", () => {
  it("leads to a page that exists", async () => {
    const seen = new Set<string>(["/welcome"]);
    const queue: { path: string; from: string }[] = [{ path: "/welcome", from: "(start)" }];
    const broken: string[] = [];
    const variantsOf = new Map<string, number>();
    let opened = 0;
    while (queue.length > 0 && opened < PAGE_LIMIT) {
      const next = queue.shift();
      if (!next) break;
      opened += 1;
      const response = await request(next.path, { headers: { Cookie: cookie }, redirect: "manual" });
      if (response.status === 404 || response.status >= 500) {
        broken.push(`${next.path} → ${response.status} (linked from ${next.from})`);
        continue;
      }
      const location = response.headers.get("Location");
      const targets =
        response.status >= 300 && response.status < 400 && location
          ? [new URL(location, ORIGIN).pathname + new URL(location, ORIGIN).search]
          : (response.headers.get("Content-Type") ?? "").includes("text/html")
            ? linksOf(await response.text())
            : [];
      for (const target of targets) {
        // Signing out would end the crawl's session: its form is a post, but guard anyway.
        if (target.startsWith("/sign-out") || seen.has(target)) continue;
        const path = target.split("?")[0] ?? target;
        const variants = (variantsOf.get(path) ?? 0) + (target.includes("?") ? 1 : 0);
        if (variants > QUERY_VARIANTS_PER_PATH) continue;
        variantsOf.set(path, variants);
        seen.add(target);
        queue.push({ path: target, from: next.path });
      }
    }
    expect(broken).toEqual([]);
    // The crawl reached the workspace, not only the welcome page.
    expect(opened).toBeGreaterThan(40);
    expect([...seen].some((path) => path.includes("/sites/site_crawl/network"))).toBe(true);
  }, 300_000);
});
