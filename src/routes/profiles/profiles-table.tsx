import { formatDateTime, formatNumber } from "@/schema/format";
import type { ProfileSummary } from "@/server/data/profiles";
import { usePage } from "@/server/render/page-context";
import { type Column, Table } from "@/ui/table";

type Sorting = Partial<Record<"name" | "type" | "updated", { sortHref: string; sorted?: "ascending" | "descending" }>>;

/**
 * The profiles of a list page: name (to edit), type, the rules that use it (account profiles),
 * last change, and a way to delete. Sortable columns link to their sort.
 */
export function ProfilesTable({
  rows,
  editHref,
  deleteHref,
  sorting,
  showType,
  showUsage,
  timeZone,
}: {
  rows: ProfileSummary[];
  editHref: (profile: ProfileSummary) => string;
  deleteHref: (profile: ProfileSummary) => string;
  sorting: Sorting;
  showType: boolean;
  showUsage: boolean;
  /** The account's zone; templates (outside every account) show UTC. */
  timeZone: string;
}) {
  const { t, language } = usePage();
  const columns: Column<ProfileSummary>[] = [
    {
      key: "name",
      header: String(t("profiles.list.name")),
      ...sorting.name,
      cell: (profile) => (
        <a href={editHref(profile)} className="font-medium text-brand-700 hover:underline">
          {profile.name}
        </a>
      ),
    },
  ];
  if (showType) {
    columns.push({
      key: "type",
      header: String(t("profiles.list.type")),
      ...sorting.type,
      cell: (p) => t(`profiles.types.${p.type}`),
    });
  }
  if (showUsage) {
    columns.push({
      key: "usage",
      header: String(t("profiles.list.usage")),
      cell: (p) =>
        p.ruleCount === 0
          ? t("profiles.list.unused")
          : t("profiles.list.usedBy", { count: p.ruleCount, rules: formatNumber(language, p.ruleCount) }),
    });
  }
  columns.push(
    {
      key: "updated",
      header: String(t("profiles.list.updated")),
      ...sorting.updated,
      cell: (p) => <time dateTime={p.updatedAt}>{formatDateTime(language, p.updatedAt, timeZone)}</time>,
    },
    {
      key: "actions",
      header: String(t("profiles.list.actions")),
      cell: (profile) => (
        <a href={deleteHref(profile)} className="font-medium text-red-700 hover:underline">
          {t("profiles.list.delete")}
          <span className="sr-only"> {profile.name}</span>
        </a>
      ),
    },
  );
  return <Table caption={String(t("profiles.list.caption"))} columns={columns} rows={rows} rowKey={(p) => p.id} />;
}
