import { actorLabel } from "@/schema/actor-label";
import { formatDateTime, timeZoneLabel } from "@/schema/format";
import type { Language } from "@/schema/languages";
import type { Translate } from "@/server/i18n/i18n";
import { type DiffWords, diffLines } from "./diff-lines";
import { entityTypeKey, isKnownEntityType } from "./entity-types";
import { fieldLabel, valueLabel } from "./field-labels";

/** What an entry view needs of a log entry (the API's ActivityEntry, as plain JSON). */
export type EntryData = {
  id: string;
  createdAt: string;
  actorEmail: string;
  action: "create" | "update" | "delete";
  entityType: string;
  entityLabel: string;
  diff: Record<string, { before?: unknown; after?: unknown }>;
  deployable: boolean;
  deploymentId: string | null;
};

/** Translates a key, server side through i18next, in an island through its messages. */
export type Text = (key: string, values?: Record<string, string>) => string;

/** The server's Text, over i18next. */
export function textOf(t: Translate): Text {
  return (key, values) => String(values ? t(key, values) : t(key));
}

/** The reader's words for a diff: yes/no/none, translated field labels and coded values, named time zones. */
export function diffWords(text: Text, language?: Language): DiffWords {
  const zoneName = language ? (zone: string) => timeZoneLabel(language, zone) : undefined;
  return {
    yes: text("activityLogs.words.yes"),
    no: text("activityLogs.words.no"),
    none: text("activityLogs.words.none"),
    empty: text("activityLogs.words.empty"),
    label: (path) => fieldLabel(path, text),
    value: (path, value) => valueLabel(path, value, text, zoneName),
  };
}

export function entityTypeLabel(type: string, text: Text): string {
  return isKnownEntityType(type) ? text(entityTypeKey(type)) : type;
}

const actionTone = {
  create: "bg-green-50 text-green-800 ring-green-200",
  update: "bg-brand-50 text-brand-800 ring-brand-100",
  delete: "bg-red-50 text-red-800 ring-red-200",
} as const;

/**
 * One entry of the activity log: what happened to which thing, who did it and when (in the
 * reader's language, in the account's time zone), and what changed, field by field.
 * Rendered by the server and, for entries loaded later, by the load-more island.
 */
export function ActivityEntryView({
  entry,
  text,
  language,
  timeZone,
}: {
  entry: EntryData;
  text: Text;
  language: Language;
  timeZone: string;
}) {
  const words = diffWords(text, language);
  const lines = diffLines(entry.diff, entry.action, words);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-activity-entry={entry.id}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${actionTone[entry.action]}`}>
          {text(`activityLogs.actions.${entry.action}`)}
        </span>
        <span className="text-sm text-slate-600">{entityTypeLabel(entry.entityType, text)}</span>
        <span className="font-semibold text-slate-900">{entry.entityLabel}</span>
        {entry.deployable && !entry.deploymentId && (
          <span className="rounded bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900 ring-1 ring-amber-200 ring-inset">
            {text("activityLogs.notDeployed")}
          </span>
        )}
      </div>
      <p className="mt-1 text-sm text-slate-600">
        <time dateTime={entry.createdAt}>{formatDateTime(language, entry.createdAt, timeZone)}</time>
        {" · "}
        {text("activityLogs.by", { actor: actorLabel(entry.actorEmail, text) })}
      </p>
      {lines.length > 0 && (
        <ul className="mt-3 space-y-1 text-sm text-slate-800">
          {lines.map((line) => (
            <li key={line.field} className="break-words">
              <span className="font-medium text-slate-600">{line.field}</span>
              {": "}
              {line.before !== null &&
                // "Nothing before" is not a value that went away: not struck through.
                (line.before === words.none ? (
                  <span className="text-slate-500">{line.before}</span>
                ) : (
                  <del className={line.after === null ? "" : "text-slate-500"}>
                    {line.after === null && <span className="sr-only">{text("activityLogs.removed")} </span>}
                    {line.before}
                  </del>
                ))}
              {line.before !== null && line.after !== null && (
                <>
                  {" "}
                  <span aria-hidden="true">→</span>
                  <span className="sr-only">{text("activityLogs.changedTo")}</span>{" "}
                </>
              )}
              {line.after !== null && <ins className="no-underline">{line.after}</ins>}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
