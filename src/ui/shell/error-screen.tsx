import type { ErrorCodeName } from "@/schema/errors";
import { usePage } from "@/server/render/page-context";

type ErrorScreenProps = { code: ErrorCodeName; message: string; stack?: string };

/** The route error screen of spec §8. The stack is shown only in development. */
export function ErrorScreen({ code, message, stack }: ErrorScreenProps) {
  const { t, development } = usePage();
  if (code === "FORBIDDEN") {
    return (
      <section className="py-12 text-center">
        <h1 className="text-2xl font-bold text-slate-900">{t("errors.protected")}</h1>
        {/* A refusal that explains itself (a report the account's level lacks) says why. */}
        {message && message !== String(t("errors.protected")) && message !== code && (
          <p className="mx-auto mt-3 max-w-prose text-slate-700">{message}</p>
        )}
      </section>
    );
  }
  return (
    <section className="py-12">
      <h1 className="text-2xl font-bold text-slate-900">{t("errors.unexpected")}</h1>
      <p className="mt-3 text-slate-700">{message}</p>
      <p className="mt-1 text-sm text-slate-600">{t("errors.code", { code })}</p>
      {development && stack && (
        <pre className="mt-4 overflow-x-auto rounded bg-slate-900 p-4 text-xs text-slate-100">{stack}</pre>
      )}
    </section>
  );
}
