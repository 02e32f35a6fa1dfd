// The pages the JavaScript-per-page benchmark loads: every route of the route table, as the
// browser tests open it (tests/e2e/route-list.ts, which tests/worker/route-list.test.ts keeps
// complete), with the ids its setup makes in the local demo. Node strips that file's types.
// Everything is opened as the demo owner, except the public pages a signed-in visitor leaves.
// The deployment route opens real deployments, one finished and one running, and the activity
// log has more than one page (bench/objects.mjs); a page that answers other than the list
// expects (200, or the 404 a visit declares) stops the benchmark.
import { makeBenchObjects } from "./objects.mjs";

const DEPLOYMENT_ROUTE = "/accounts/:accountId/deployments/:deploymentId";

/** [{ name, pattern, path, signedIn, expectedStatus }] for every route, after making the ids the visits need. */
export async function benchRoutes(browser, baseUrl) {
  const { routeVisits, makeIds, signInAsOwner, OWNER } = await import("../tests/e2e/route-list.ts");
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    await signInAsOwner(context.request, baseUrl);
    const ids = await makeIds(context.request, baseUrl);
    const objects = await makeBenchObjects(context.request, baseUrl);
    return routeVisits.flatMap((visit) => {
      const route = {
        name: visit.route,
        pattern: visit.route,
        path: visit.url(ids),
        signedIn: visit.signedOut ? null : OWNER,
        expectedStatus: visit.status ?? 200,
      };
      if (visit.route !== DEPLOYMENT_ROUTE) return [route];
      const deployment = (state, id) => ({
        ...route,
        name: `${visit.route} (${state})`,
        path: route.path.replace(/[^/]+$/, id),
        expectedStatus: 200,
      });
      return [deployment("running", objects.runningDeployment), deployment("finished", objects.finishedDeployment)];
    });
  } finally {
    await context.close();
  }
}
