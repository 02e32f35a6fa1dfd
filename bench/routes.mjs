// The pages the JavaScript-per-page benchmark loads: every route of the route table, as the
// browser tests open it (tests/e2e/route-list.ts, which tests/worker/route-list.test.ts keeps
// complete), with the ids its setup makes in the local demo. Node strips that file's types.
// Everything is opened as the demo owner, except the public pages a signed-in visitor leaves.

/** [{ name, pattern, path, signedIn }] for every route, after making the ids the visits need. */
export async function benchRoutes(browser, baseUrl) {
  const { routeVisits, makeIds, signInAsOwner, OWNER } = await import("../tests/e2e/route-list.ts");
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    await signInAsOwner(context.request, baseUrl);
    const ids = await makeIds(context.request, baseUrl);
    return routeVisits.map((visit) => ({
      name: visit.route,
      pattern: visit.route,
      path: visit.url(ids),
      signedIn: visit.signedOut ? null : OWNER,
    }));
  } finally {
    await context.close();
  }
}
