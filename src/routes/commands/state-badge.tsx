import { usePage } from "@/server/render/page-context";

const tones: Record<string, string> = {
  queued: "bg-slate-100 text-slate-800",
  sent: "bg-sky-100 text-sky-900",
  delivered: "bg-indigo-100 text-indigo-900",
  succeeded: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
  expired: "bg-amber-100 text-amber-900",
  cancelled: "bg-slate-200 text-slate-700",
};

/** A command's state in words, with a colour that is never the only signal. */
export function CommandStateBadge({ state }: { state: string }) {
  const { t } = usePage();
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tones[state] ?? tones.queued}`}
      data-command-state={state}
    >
      {t(`commands.states.${state}`)}
    </span>
  );
}
