import { TRPCError } from "@trpc/server";
import { actorLabel } from "@/schema/actor-label";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { DeploymentApproval } from "@/server/data/deployment-approval";
import type { Deployment } from "@/server/data/deployments";
import { ApprovalRefused } from "@/server/fleet/approval-decision";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { FieldIdScope, TextareaField } from "@/ui/field";
import { StatusMessage } from "@/ui/status-message";
import type { ActionResult, RouteContext } from "../types";

/**
 * A deployment's approval (issue 25): while it waits, who may decide and until when, with plain
 * Approve and Reject forms (post/redirect/get, no JavaScript needed) for those allowed; once
 * decided, who decided, when and why.
 */
export function ApprovalPanel({
  deployment,
  approval,
  canDecide,
  timeZone,
  action,
}: {
  action: string;
  deployment: Deployment;
  approval: DeploymentApproval;
  canDecide: boolean;
  timeZone: string;
}) {
  const { t, language } = usePage();
  if (approval.approval === "none") return null;
  const when = (at: string | null) => (at ? formatDateTime(language, at, timeZone) : "");
  if (approval.approval !== "pending") {
    const key = `deployments.approval.${approval.approval}`;
    return (
      <StatusMessage tone={approval.approval === "approved" ? "success" : "info"}>
        {t(key, {
          who: actorLabel(approval.decidedBy ?? "", (key, values) => String(t(key, values))),
          time: when(approval.decidedAt),
        })}
        {approval.note && <> {t("deployments.approval.noteWas", { note: approval.note })}</>}
      </StatusMessage>
    );
  }
  return (
    <section aria-labelledby="approval-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="approval-heading" className="text-lg font-semibold">
        {t("deployments.approval.heading")}
      </h2>
      <p className="mt-1 text-sm text-slate-800">
        {t("deployments.approval.waiting", {
          author: actorLabel(deployment.createdBy, (key, values) => String(t(key, values))),
          time: when(approval.expiresAt),
        })}
      </p>
      {canDecide && (
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          <FieldIdScope value="approve-">
            <form method="post" action={action} className="flex flex-col gap-2">
              <input type="hidden" name="do" value="approve" />
              <input type="hidden" name="version" value={String(deployment.version)} />
              <TextareaField label={String(t("deployments.approval.approveNote"))} name="note" rows={2} maxLength={500} />
              <Button type="submit" size="sm" className="self-start">
                {t("deployments.approval.approve")}
              </Button>
            </form>
          </FieldIdScope>
          <FieldIdScope value="reject-">
            <form method="post" action={action} className="flex flex-col gap-2">
              <input type="hidden" name="do" value="reject" />
              <input type="hidden" name="version" value={String(deployment.version)} />
              <TextareaField label={String(t("deployments.approval.rejectNote"))} name="note" rows={2} maxLength={500} required />
              <Button type="submit" size="sm" variant="danger" className="self-start">
                {t("deployments.approval.reject")}
              </Button>
            </form>
          </FieldIdScope>
        </div>
      )}
    </section>
  );
}

/** The Approve / Reject forms' post: the decision, then back to the page with what happened. */
export async function decideFromPage(
  c: RouteContext,
  id: string,
  here: string,
  posted: Record<string, string>,
): Promise<ActionResult> {
  const approve = posted.do === "approve";
  const note = (posted.note ?? "").trim();
  if (!approve && note === "")
    return { ok: true, redirect: here, flash: { type: "error", key: "validation.RejectNoteRequired" } };
  const version = Number(posted.version ?? "");
  const input = { id, note, ...(Number.isInteger(version) && version > 0 ? { version } : {}) };
  try {
    if (approve) await api(c).deployments.approve(input);
    else await api(c).deployments.reject(input);
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    const key =
      error.cause instanceof ApprovalRefused
        ? `errors.approval.${error.cause.refusal}`
        : error.code === "BAD_REQUEST"
          ? "validation.NoteTooLong"
          : error.code === "FORBIDDEN"
            ? "errors.protected"
            : null;
    if (!key) throw error;
    return { ok: true, redirect: here, flash: { type: "error", key } };
  }
  return {
    ok: true,
    redirect: here,
    flash: { type: "success", key: approve ? "deployments.approval.done.approved" : "deployments.approval.done.rejected" },
  };
}
