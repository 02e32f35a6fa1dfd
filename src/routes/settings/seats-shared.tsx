import { TRPCError } from "@trpc/server";
import { formatDate, formatNumber } from "@/schema/format";
import type { Language } from "@/schema/languages";
import type { EffectiveStatus } from "@/schema/subscriptions";
import { Refusal } from "@/server/api/refusal";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { SelectField } from "@/ui/field";
import type { ActionResult, RouteContext } from "../types";
import { formRefusal } from "./procedure-refusal";

/*
 * What the subscription and allocation screens share: the organization they look at
 * (?orgId=, the caller's own by default), its picker, and how seats, periods and statuses read.
 */

export type PickerOrganization = { id: string; name: string; depth: number };

/** The organization a Subscriptions or Allocations screen looks at; the procedures check the tenant. */
export function orgIdOf(c: RouteContext): string {
  return c.req.query("orgId") || c.get("user")?.orgId || "";
}

export const subscriptionsHref = (orgId: string) => `/settings/subscriptions?orgId=${encodeURIComponent(orgId)}`;
export const allocationsHref = (orgId: string) => `/settings/allocations?orgId=${encodeURIComponent(orgId)}`;

/** Options of an organization <select>, indented by depth so the tree shows (non-breaking spaces survive in <option>). */
export function organizationOptions(organizations: readonly PickerOrganization[]): { value: string; label: string }[] {
  return organizations.map((organization) => ({
    value: organization.id,
    label: `${"\u00a0\u00a0\u00a0".repeat(organization.depth)}${organization.name}`,
  }));
}

/** Chooses the organization a screen shows: a plain GET form, so it works without JavaScript. */
export function OrganizationPicker({ organizations, orgId }: { organizations: readonly PickerOrganization[]; orgId: string }) {
  const { t } = usePage();
  if (organizations.length < 2) return null;
  return (
    <form method="get" className="mb-6 flex flex-wrap items-end gap-2">
      <SelectField
        name="orgId"
        label={String(t("subscriptions.organization"))}
        defaultValue={orgId}
        options={organizationOptions(organizations)}
        className="min-w-64"
      />
      <Button type="submit" variant="white">
        {t("subscriptions.show")}
      </Button>
    </form>
  );
}

/** A calendar day (YYYY-MM-DD, stored in UTC) in the reader's language. */
export function formatDay(language: Language, day: string): string {
  return formatDate(language, `${day}T00:00:00Z`, { dateStyle: "medium", timeZone: "UTC" });
}

export function Period({ startsAt, endsAt }: { startsAt: string; endsAt: string | null }) {
  const { t, language } = usePage();
  const start = formatDay(language, startsAt);
  return (
    <>
      {endsAt === null
        ? t("subscriptions.periodOpen", { start })
        : t("subscriptions.period", { start, end: formatDay(language, endsAt) })}
    </>
  );
}

const statusTone: Record<EffectiveStatus, string> = {
  active: "bg-green-50 text-green-800 ring-green-600/20",
  suspended: "bg-amber-50 text-amber-800 ring-amber-600/20",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-500/20",
  expired: "bg-red-50 text-red-800 ring-red-600/20",
};

export function StatusBadge({ status }: { status: EffectiveStatus }) {
  const { t } = usePage();
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${statusTone[status]}`}>
      {t(`subscriptions.statuses.${status}`)}
    </span>
  );
}

export function Seats({ value }: { value: number }) {
  const { language } = usePage();
  return <>{formatNumber(language, value)}</>;
}

/**
 * A typed seat count for a procedure. Empty goes on as missing and anything else as a number,
 * so the procedure's zod schema answers what is wrong ("required", "whole number" …).
 */
export function seatCount(text: string | undefined): number {
  const trimmed = (text ?? "").trim();
  return (trimmed === "" ? undefined : Number(trimmed)) as number;
}

/** A link in a table row whose visible text repeats per row: screen readers hear which row it acts on. */
export function RowLink({ href, text, about }: { href: string; text: string; about: string }) {
  return (
    <a href={href} className="font-medium text-brand-700 hover:underline">
      {text}
      <span className="sr-only"> {about}</span>
    </a>
  );
}

/**
 * A procedure's refusal as the form's answer (see formRefusal). A permission the caller lacks
 * is not about the form: it goes on to the route error screen ("This route is protected.").
 */
export function seatsRefusal(
  error: unknown,
  values: Record<string, string>,
  options: Parameters<typeof formRefusal>[2],
): ActionResult {
  if (error instanceof TRPCError && error.code === "FORBIDDEN" && !(error.cause instanceof Refusal)) throw error;
  return formRefusal(error, values, options);
}

/** A number for a flash message, formatted in the language of the request that sets it. */
export function seatsText(c: RouteContext, value: number): string {
  return formatNumber(c.get("language"), value);
}
