import { usePage } from "@/server/render/page-context";
import { buttonClass } from "../button";

/**
 * The idle warning (WCAG 2.2.1): a modal dialog the shell script opens two minutes before the
 * 15-minute idle sign-out. "Stay signed in" posts to /api/session/extend, which touches the
 * session on the server. Never shown without JavaScript, where the server's limit stays.
 */
export function IdleWarning() {
  const { t } = usePage();
  return (
    <dialog
      id="idle-warning"
      role="alertdialog"
      aria-labelledby="idle-warning-title"
      aria-describedby="idle-warning-text"
      className="m-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id="idle-warning-title" className="text-lg font-semibold text-slate-900">
        {t("idle.title")}
      </h2>
      <p id="idle-warning-text" className="mt-2 text-sm text-slate-700">
        {t("idle.text")}
      </p>
      <form method="post" action="/api/session/extend" className="mt-4">
        <button type="submit" className={buttonClass("primary", "md")}>
          {t("idle.stay")}
        </button>
      </form>
    </dialog>
  );
}
