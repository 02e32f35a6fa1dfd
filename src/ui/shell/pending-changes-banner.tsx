import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "../button";

/**
 * Spec §4: shown on every page of an account while it has changes to deploy; the Review
 * changes button only for users with create-deployments (§6), and not on the review page itself.
 */
export function PendingChangesBanner({ accountId, count }: { accountId: string; count: number }) {
  const { t, language, user, currentPath } = usePage();
  if (count <= 0) return null;
  const changesPath = `/accounts/${encodeURIComponent(accountId)}/changes`;
  const onChangesPage = (currentPath.split("?")[0] ?? "") === changesPath;
  const canReview = user?.permissions["create-deployments"] === true && !onChangesPage;
  return (
    <div
      role="status"
      data-pending-changes={count}
      className="mb-5 flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 print:hidden"
    >
      <p className="font-medium">{t("pendingChanges.banner", { count, formatted: formatNumber(language, count) })}</p>
      {canReview && (
        <ButtonLink href={changesPath} size="sm">
          {t("pendingChanges.review")}
        </ButtonLink>
      )}
    </div>
  );
}
