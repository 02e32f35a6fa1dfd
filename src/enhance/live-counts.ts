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
      /** A firmware deployment's radios by stage (issue 26). */
      stages?: Counts;
    };
  };
};

const POLL_MS = 2000;
const ACTIVE = ["scheduled", "running", "paused"];

/**
 * A firmware deployment's stage table (src/routes/deployments/firmware-stages.tsx), when the page
 * has one: each stage's number, and the average progress of the radios downloading (asked of
 * deployments.downloadProgress; hidden while none is downloading).
 */
async function followStages(input: string, stages: Counts, format: Intl.NumberFormat) {
  const cells = document.querySelectorAll<HTMLElement>("[data-stage-count]");
  if (cells.length === 0) return;
  for (const cell of cells) {
    const text = format.format(stages[cell.dataset.stageCount ?? ""] ?? 0);
    if (cell.textContent !== text) cell.textContent = text;
  }
  const progress = document.querySelector<HTMLElement>("[data-average-progress]");
  const percent = progress?.querySelector<HTMLElement>("[data-average-percent]");
  if (!progress || !percent) return;
  const response = await fetch(`/api/deployments.downloadProgress?input=${input}`, { headers: { Accept: "application/json" } });
  const answer = response.ok ? ((await response.json()) as { result?: { data?: { average: number | null } } }) : undefined;
  const average = answer?.result?.data?.average;
  if (average === undefined) return;
  progress.hidden = average === null;
  if (average !== null) {
    const text = new Intl.NumberFormat(document.documentElement.lang, { style: "percent" }).format(average / 100);
    if (percent.textContent !== text) percent.textContent = text;
  }
}

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
        await followStages(input, data.stages ?? {}, format);
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
