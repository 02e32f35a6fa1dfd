/**
 * A deployment's live counts without React (issue 24): the server rendered the table
 * (src/routes/deployments/live-counts.tsx); while the deployment can still change this asks
 * deployments.get every two seconds, writes each number into its cell, and when the state or
 * the phase changed refreshes the page's live parts (badge, banner, buttons, headings, the
 * state line) from the server's own rendering.
 */
import { refreshLiveParts } from "@/islands/runtime/live-parts";

type Counts = Partial<Record<string, number>>;
type Answer = {
  result?: {
    data?: {
      deployment: { state: string; phaseIndex: number };
      counts: { total: Counts; phases: { counts: Counts }[] };
    };
  };
};

const POLL_MS = 2000;
const ACTIVE = ["scheduled", "running", "paused"];

function follow(root: HTMLElement) {
  const input = encodeURIComponent(JSON.stringify({ id: root.dataset.liveCounts }));
  const format = new Intl.NumberFormat(document.documentElement.lang);
  let seen = `${root.dataset.state}|${root.dataset.phase}`;
  let state = root.dataset.state ?? "";
  const tick = async () => {
    try {
      const response = await fetch(`/api/deployments.get?input=${input}`, { headers: { Accept: "application/json" } });
      const data = response.ok ? ((await response.json()) as Answer).result?.data : undefined;
      if (data) {
        for (const cell of root.querySelectorAll<HTMLElement>("[data-count]")) {
          const [where, shown] = (cell.dataset.count ?? "").split(":");
          const counts = where === "total" ? data.counts.total : data.counts.phases[Number(where)]?.counts;
          const text = format.format(counts?.[shown ?? ""] ?? 0);
          if (cell.textContent !== text) cell.textContent = text;
        }
        state = data.deployment.state;
        const now = `${state}|${data.deployment.phaseIndex}`;
        if (now !== seen) {
          seen = now;
          await refreshLiveParts();
        }
      }
    } catch {
      // The next tick tries again.
    }
    if (ACTIVE.includes(state)) setTimeout(tick, POLL_MS);
  };
  setTimeout(tick, POLL_MS);
  root.dataset.following = "";
}

for (const root of document.querySelectorAll<HTMLElement>("[data-live-counts]")) follow(root);

/**
 * A bulk command batch's live counts (issue 25), same idea: the batch page rendered each state's
 * number in a `[data-count]` cell under `[data-live-batch]`; this asks commandBatches.get every
 * two seconds while any command can still move (queued, sent or delivered) and writes the numbers.
 */
const MOVING = ["queued", "sent", "delivered"];
type BatchAnswer = { result?: { data?: { counts: Record<string, number> } } };

function followBatch(root: HTMLElement) {
  const input = encodeURIComponent(
    JSON.stringify({
      batchId: root.dataset.liveBatch,
      ...(root.dataset.accountId ? { accountId: root.dataset.accountId } : {}),
    }),
  );
  const format = new Intl.NumberFormat(document.documentElement.lang);
  const tick = async () => {
    let moving = true;
    try {
      const response = await fetch(`/api/commandBatches.get?input=${input}`, { headers: { Accept: "application/json" } });
      const counts = response.ok ? ((await response.json()) as BatchAnswer).result?.data?.counts : undefined;
      if (counts) {
        for (const cell of root.querySelectorAll<HTMLElement>("[data-count]")) {
          const text = format.format(counts[cell.dataset.count ?? ""] ?? 0);
          if (cell.textContent !== text) cell.textContent = text;
        }
        moving = MOVING.some((state) => (counts[state] ?? 0) > 0);
      }
    } catch {
      // The next tick tries again.
    }
    if (moving) setTimeout(tick, POLL_MS);
  };
  setTimeout(tick, POLL_MS);
  root.dataset.following = "";
}

for (const root of document.querySelectorAll<HTMLElement>("[data-live-batch]")) followBatch(root);
