// Real objects for the browser benchmarks to open (issue 24: the route list once measured a
// 404 deployment and a one-page activity log, so it never saw the deployment page's live counts
// nor the log's "Load more"). Made through the product's own API as the demo owner, in the
// bench server's local D1: a finished deployment, a running one, and an activity log with more
// than one page.

export const BENCH_ACCOUNT = "acc_harbor_demo";
/** The activity log's page size (src/routes/accounts/activity/logs.tsx ACTIVITY_PAGE_SIZE). */
const LOG_PAGE = 25;

async function trpc(request, baseUrl, path, input, { query = false } = {}) {
  const headers = { Origin: new URL(baseUrl).origin };
  const response = query
    ? await request.get(`${baseUrl}/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
    : await request.post(`${baseUrl}/api/${path}`, { data: input, headers });
  const body = await response.json();
  if (!body.result) throw new Error(`${path} answered ${response.status()}: ${JSON.stringify(body.error ?? body)}`);
  return body.result.data;
}

/** Network changes, each an activity entry, until the log has a next page. */
async function fillActivityLog(request, baseUrl) {
  for (let n = 0; n <= LOG_PAGE; n++) {
    const page = await trpc(
      request,
      baseUrl,
      "activityLogs.list",
      { accountId: BENCH_ACCOUNT, limit: LOG_PAGE },
      { query: true },
    );
    if (page.nextCursor) return;
    const { version, config } = await trpc(request, baseUrl, "accounts.networkConfig", { id: BENCH_ACCOUNT }, { query: true });
    await trpc(request, baseUrl, "accounts.updateNetworkConfig", {
      id: BENCH_ACCOUNT,
      version,
      config: { ...config, ntpServers: [`ntp${n}-${Date.now().toString(36)}.bench.example`] },
    });
  }
  throw new Error("the activity log still has one page after the network changes");
}

/**
 * { finishedDeployment, runningDeployment } ids, after filling the activity log past one page.
 * `request` is a Playwright APIRequestContext signed in as the demo owner.
 */
export async function makeBenchObjects(request, baseUrl) {
  await fillActivityLog(request, baseUrl);
  const finished = await trpc(request, baseUrl, "deployments.create", { accountId: BENCH_ACCOUNT, note: "Bench: finished" });
  const after = await trpc(request, baseUrl, "deployments.act", { id: finished.id, action: "advance" });
  if (after.state !== "finished") throw new Error(`the bench's finished deployment is ${after.state}`);
  const running = await trpc(request, baseUrl, "deployments.create", { accountId: BENCH_ACCOUNT, note: "Bench: running" });
  if (running.state !== "running") throw new Error(`the bench's running deployment is ${running.state}`);
  return { finishedDeployment: finished.id, runningDeployment: running.id };
}

/** The pages of those objects, as the benchmarks list pages. */
export function benchObjectPages(objects) {
  const acc = (path) => `/accounts/${BENCH_ACCOUNT}${path}`;
  return [
    { name: "running deployment (signed in)", path: acc(`/deployments/${objects.runningDeployment}`) },
    { name: "finished deployment (signed in)", path: acc(`/deployments/${objects.finishedDeployment}`) },
    { name: "activity log of many pages (signed in)", path: acc("/activity-logs") },
  ];
}

/** Throws unless the page answered what the list expects: a measured error page measures nothing. */
export function assertStatus(page, status) {
  const expected = page.expectedStatus ?? 200;
  if (status !== expected) throw new Error(`${page.name} ${page.path} answered ${status}, not ${expected}`);
}
