// Starts a phased deployment of an account's pending configuration to a saved group of radios,
// then waits for it, printing each phase's progress, as a release pipeline would:
//
//   node docs/cookbook/phased-rollout.mjs --account acc_… --group "Night shift" --phases 10,50,100
//
// Each phase opens when the one before reached --success percent of its radios applied; it
// pauses after --errors failed radios. The script ends 0 when every radio applied, 2 when the
// deployment paused or was cancelled (someone has to look: the deployment's page says why),
// 3 when --wait-minutes passed. A deployment that needs approval waits for it like any other.
import { randomUUID } from "node:crypto";
import { connect, options } from "./api.mjs";

const args = options({
  account: "",
  group: "",
  phases: "10,50,100",
  success: "90",
  errors: "5",
  note: "",
  "wait-minutes": "60",
  every: "5",
});
if (!args.account || !args.group)
  throw new Error("usage: phased-rollout.mjs --account <id> --group <name or id> [--phases 10,50,100]");

const api = connect({ log: console.error });
const { items: groups } = await api.query("radioGroups.list", { accountId: args.account });
const group = groups.find((g) => g.id === args.group || g.name === args.group);
if (!group) throw new Error(`no group "${args.group}" in ${args.account}: ${groups.map((g) => g.name).join(", ")}`);

const phases = args.phases.split(",").map((share) => ({
  share: Number(share),
  successPercent: Number(args.success),
  successAction: "next",
  errorKind: "count",
  errorValue: Number(args.errors),
}));
// The same key on a retried call returns the deployment already made, never a second one.
const created = await api.mutate("deployments.create", {
  accountId: args.account,
  target: { kind: "filter", filter: { groupId: group.id } },
  plan: { phases },
  note: args.note || `Rolled out to ${group.name} by phased-rollout.mjs`,
  idempotencyKey: randomUUID(),
});
console.log(`deployment #${created.number} (${created.id}) to ${group.name}: ${created.state}`);

const deadline = Date.now() + Number(args["wait-minutes"]) * 60_000;
let last = "";
for (;;) {
  const { deployment, counts } = await api.query("deployments.get", { id: created.id });
  // A radio that already ran the revision counts as done, like one that applied it.
  const done = (c) => (c.applied ?? 0) + (c.already_in_sync ?? 0);
  const failed = (c) => (c.failed ?? 0) + (c.rejected ?? 0) + (c.timed_out ?? 0);
  const phase = counts.phases
    .map((p, i) => `phase ${i + 1}: ${done(p.counts)}/${p.targeted} applied, ${failed(p.counts)} failed`)
    .join("; ");
  const line = `${deployment.state} · ${phase}`;
  if (line !== last) console.log(line);
  last = line;
  if (deployment.state === "finished") {
    console.log(`finished: ${done(counts.total)} applied, ${failed(counts.total)} did not`);
    process.exit(failed(counts.total) === 0 ? 0 : 2);
  }
  if (["paused", "cancelled", "superseded"].includes(deployment.state)) {
    console.log(
      `${deployment.state}${deployment.pauseReason ? `: ${deployment.pauseReason}` : ""}; see ${process.env.CT_URL}/accounts/${args.account}/deployments/${created.id}`,
    );
    process.exit(2);
  }
  if (Date.now() > deadline) {
    console.log(`still ${deployment.state} after ${args["wait-minutes"]} minutes`);
    process.exit(3);
  }
  await new Promise((resolve) => setTimeout(resolve, Number(args.every) * 1000));
}
