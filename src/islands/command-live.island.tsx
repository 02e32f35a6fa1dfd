import { useEffect, useState } from "react";
import { formatTimeOfDay } from "@/schema/format";
import type { Language } from "@/schema/languages";
import { refreshLiveParts } from "./runtime/live-parts";
import { type Messages, translate } from "./runtime/messages";

/** What the timeline shows of a command (a subset of the procedure's answer, JSON only). */
export type LiveCommand = {
  id: string;
  type: string;
  state: string;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  endedAt: string | null;
  expiresAt: string;
  result: Record<string, unknown> | null;
  code: string;
  detail: string;
};

export type CommandLiveProps = {
  messages: Messages;
  language: string;
  timeZone: string;
  uid: string;
  accountId?: string;
  command: LiveCommand;
  /** The connectivity test: say the round trip in words. */
  roundTrip?: boolean;
};

const POLL_MS = 1000;
const FINAL = ["succeeded", "failed", "expired", "cancelled"];

/** Milliseconds from the queueing to a step, or null while it has not happened. */
function offset(from: string, to: string | null): number | null {
  return to ? Math.max(0, Date.parse(to) - Date.parse(from)) : null;
}

/**
 * A command's steps (queued, sent, delivered, then its outcome) with their times and their
 * offsets from the queueing. Rendered on the server (the page's Refresh link updates it without
 * JavaScript); in the browser it asks again every second until the command is done.
 */
export default function CommandLive({
  messages,
  language,
  timeZone,
  uid,
  accountId,
  command: initial,
  roundTrip = false,
}: CommandLiveProps) {
  const [command, setCommand] = useState(initial);
  const [seenState, setSeenState] = useState(initial.state);
  const t = (key: string, values?: Record<string, string | number>) => translate(messages, key, values);
  const done = FINAL.includes(command.state);
  // A new state also changes the page's badge and whether it may still be cancelled.
  useEffect(() => {
    if (command.state === seenState) return;
    setSeenState(command.state);
    void refreshLiveParts().catch(() => undefined);
  }, [command.state, seenState]);
  useEffect(() => {
    if (done) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const input = encodeURIComponent(JSON.stringify({ uid, id: command.id, ...(accountId ? { accountId } : {}) }));
        const response = await fetch(`/api/commands.get?input=${input}`, { headers: { Accept: "application/json" } });
        if (response.ok) {
          const body = (await response.json()) as { result?: { data: { command: LiveCommand } } };
          const next = body.result?.data.command;
          if (next && !stopped) setCommand(next);
        }
      } catch {
        // The next tick tries again.
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [uid, accountId, command.id, done]);
  const time = (value: string) => formatTimeOfDay(language as Language, value, timeZone);
  const outcome = FINAL.includes(command.state) ? command.state : "outcome";
  const steps: { key: string; at: string | null }[] = [
    { key: "queued", at: command.createdAt },
    { key: "sent", at: command.sentAt },
    { key: "delivered", at: command.deliveredAt },
    { key: outcome, at: command.endedAt },
  ];
  const total = command.state === "succeeded" ? offset(command.createdAt, command.endedAt) : null;
  const position =
    command.type === "locate" && command.result && typeof command.result.latitude === "number" ? command.result : null;
  return (
    <div data-testid="command-live" data-state={command.state}>
      <p className="mb-3 text-sm font-medium" aria-live="polite" data-testid="command-state">
        {t("commands.liveState", { state: t(`commands.states.${command.state}`) })}
      </p>
      <ol className="space-y-2 border-l-2 border-slate-200 pl-4 text-sm">
        {steps.map((step) => {
          const ms = offset(command.createdAt, step.at);
          return (
            <li
              key={step.key}
              data-step={step.key}
              data-done={step.at ? "yes" : "no"}
              className={step.at ? "text-slate-900" : "text-slate-400"}
            >
              <span className="font-medium">{t(`commands.steps.${step.key}`)}</span>
              {step.at ? (
                <span>
                  {" · "}
                  {time(step.at)}
                  {ms !== null && step.key !== "queued" ? ` (+${ms.toLocaleString(language)} ms)` : ""}
                </span>
              ) : (
                <span> · {t("commands.steps.waiting")}</span>
              )}
            </li>
          );
        })}
      </ol>
      {(command.code || command.detail) && (
        <p className="mt-3 text-sm text-slate-700">
          {t("commands.detail.code", { code: [command.code, command.detail].filter(Boolean).join(" — ") })}
        </p>
      )}
      {position && (
        <p className="mt-3 text-sm" data-testid="command-position">
          {t("commands.detail.position", {
            latitude: Number(position.latitude).toFixed(5),
            longitude: Number(position.longitude).toFixed(5),
            accuracy: Number(position.accuracyMeters ?? 0),
          })}
        </p>
      )}
      {roundTrip && (
        <p className="mt-3 text-base font-semibold" data-testid="round-trip">
          {total !== null
            ? t("commands.test.answered", { ms: total.toLocaleString(language) })
            : FINAL.includes(command.state)
              ? t("commands.test.noAnswer", { state: t(`commands.states.${command.state}`) })
              : t("commands.test.waiting")}
        </p>
      )}
    </div>
  );
}

export const commandLiveMessageKeys = [
  "commands.liveState",
  "commands.detail.code",
  "commands.detail.position",
  "commands.test.answered",
  "commands.test.noAnswer",
  "commands.test.waiting",
  "commands.steps.waiting",
  ...["queued", "sent", "delivered", "outcome", "succeeded", "failed", "expired", "cancelled"].map((s) => `commands.steps.${s}`),
  ...["queued", "sent", "delivered", "succeeded", "failed", "expired", "cancelled"].map((s) => `commands.states.${s}`),
];
