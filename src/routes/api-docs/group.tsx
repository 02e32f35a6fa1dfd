import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { definePage } from "../types";
import { callsOf, type DocumentedCall, procedureGroups } from "./document-parts";
import { apiDocsHref, apiGroupHref, openApiHref } from "./paths";
import { ProcedureEntry } from "./procedure-entry";

type Data = { origin: string; group: string; calls: DocumentedCall[] };

const linkClass = "text-brand-700 hover:underline";

function ApiGroup({ data }: { data: Data }) {
  const { t } = usePage();
  const { group, calls, origin } = data;
  return (
    <>
      <p className="mb-2 text-sm">
        <a href={apiDocsHref} className={linkClass}>
          ← {t("apiDocs.overview")}
        </a>
      </p>
      <PageHeader title={String(t(`apiDocs.routerTitles.${group}`))} description={t(`apiDocs.routers.${group}`)} />
      <div className="flex flex-col gap-8 lg:flex-row-reverse lg:items-start lg:justify-between">
        <nav
          aria-labelledby="group-toc-heading"
          className="rounded-lg border border-slate-200 bg-white p-4 lg:sticky lg:top-4 lg:w-72"
        >
          <h2 id="group-toc-heading" className="text-sm font-semibold tracking-wide text-slate-900 uppercase">
            {t("apiDocs.groupContents")}
          </h2>
          <ol className="mt-2 flex flex-col gap-1 text-sm">
            {calls.map(({ operation }) => (
              <li key={operation.operationId}>
                <a href={`#${operation.operationId}`} className={`${linkClass} font-mono break-all`}>
                  {operation.operationId}
                </a>
              </li>
            ))}
          </ol>
          <p className="mt-3 text-sm">
            <a href={openApiHref} className={linkClass} type="application/json">
              {t("apiDocs.openapi")}
            </a>
          </p>
        </nav>
        <div className="flex max-w-3xl min-w-0 flex-1 flex-col gap-6">
          {calls.map((call) => (
            <ProcedureEntry key={call.operation.operationId} call={call} origin={origin} />
          ))}
        </div>
      </div>
      <nav aria-labelledby="other-groups-heading" className="mt-10 border-t border-slate-200 pt-4">
        <h2 id="other-groups-heading" className="text-base font-semibold text-slate-900">
          {t("apiDocs.otherGroups")}
        </h2>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {procedureGroups()
            .filter((other) => other !== group)
            .map((other) => (
              <li key={other}>
                <a href={apiGroupHref(other)} className={linkClass}>
                  {t(`apiDocs.routerTitles.${other}`)}
                </a>
              </li>
            ))}
        </ul>
      </nav>
    </>
  );
}

/** /docs/api/{group}: every procedure of one router, with its input and a curl example; an unknown group is 404. */
export const apiGroupPage = definePage<Data>({
  load: async (c) => {
    const group = c.req.param("group") ?? "";
    if (!procedureGroups().includes(group)) return c.notFound();
    return { origin: new URL(c.req.url).origin, group, calls: callsOf(group) };
  },
  Component: ApiGroup,
  title: (data, t) => `${String(t(`apiDocs.routerTitles.${data.group}`))} · ${String(t("routes.apiDocs"))}`,
});
