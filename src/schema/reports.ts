/** An account's subscription level (accounts.subscription_level). */
type SubscriptionLevel = "essential" | "advanced";

/**
 * The eight reports of an account (issue 14) and what each can be grouped by. Essential
 * accounts get inventory, last seen and seats; the list shows the others as needing an upgrade.
 */
export const reportIds = [
  "inventory",
  "firmware",
  "compliance",
  "deployments",
  "commands",
  "last-seen",
  "seats",
  "activity",
] as const;
export type ReportId = (typeof reportIds)[number];

export const essentialReports: ReadonlySet<ReportId> = new Set(["inventory", "last-seen", "seats"]);

/** The groupings a report offers (the first is the default); a report without any has one table. */
export const reportGroupings = {
  inventory: ["model", "firmware", "site", "location"],
  firmware: ["version"],
  compliance: ["site"],
  deployments: ["deployment", "phase", "reason"],
  commands: ["type", "day"],
  "last-seen": ["site"],
  seats: ["allocation"],
  activity: ["person", "kind", "day"],
} as const satisfies Record<ReportId, readonly string[]>;
export type Grouping = (typeof reportGroupings)[ReportId][number];

/** Reports about things that happened over time take a date range (calendar days in the account's zone). */
export const rangedReports: ReadonlySet<ReportId> = new Set(["deployments", "commands", "activity"]);

/** Longest range one report covers, and the default: the last 30 days. */
export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;

export function isReportId(value: string): value is ReportId {
  return (reportIds as readonly string[]).includes(value);
}

export function reportAvailable(report: ReportId, level: SubscriptionLevel): boolean {
  return level === "advanced" || essentialReports.has(report);
}

/** The permission flag that opens reports for an account of this level (spec §6). */
export function reportsFlagFor(level: SubscriptionLevel) {
  return level === "advanced" ? "view-reports-in-advanced-accounts" : "view-reports-in-non-advanced-accounts";
}

/** What a cell holds; the page formats it with Intl in the user's language, the CSV writes it plain. */
export type CellKind = "text" | "count" | "percent" | "seconds" | "day";

export type ReportColumn = {
  key: string;
  kind: CellKind;
  /** Translation key of the header. */
  label: string;
  /** A text cell holding a code: shown as the translation `${translate}.${value}`. */
  translate?: string;
};
export type ReportRow = Record<string, string | number | null>;

/**
 * A report as computed: its table (exactly what the page and the CSV show), the columns the
 * chart stacks (count columns of the table) and the column naming each bar.
 */
export type ReportTable = {
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The table column whose value names each bar. */
  category: string;
  /** Count columns drawn as (stacked) bars. */
  series: string[];
  /** Translation key of the chart's value unit ("radios", "commands", "changes", "seats"). */
  unit: string;
  /** Figures said above the chart (translation key → number). */
  summary: { label: string; value: number }[];
  /** When the figures were counted, if not now (a large account's sync snapshot, data/sync-snapshots.ts). */
  asOf?: string;
};
