import { downloadEntries } from "@/server/api/openapi/downloads";
import { exampleInputs } from "@/server/api/openapi/examples";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { definePage } from "../types";
import { curlDownload, curlMutation, curlQuery } from "./curl";
import { callsOf, documentedCalls, pagingField, procedureGroups } from "./document-parts";
import { CodeBlock, DocSection } from "./parts";
import { apiGroupHref, apiTokensHref, openApiHref } from "./paths";

type Data = { origin: string };

const sections = ["tokens", "header", "wire", "errors", "limits", "paging", "downloads", "walkthrough", "procedures"] as const;

/** Spec §8 codes an integrator meets, with their HTTP status. */
const errorRows = [
  ["400", "BAD_REQUEST"],
  ["400", "PARSE_ERROR"],
  ["401", "UNAUTHORIZED"],
  ["403", "FORBIDDEN"],
  ["404", "NOT_FOUND"],
  ["409", "CONFLICT"],
  ["412", "PRECONDITION_FAILED"],
  ["429", "TOO_MANY_REQUESTS"],
] as const;

const errorExample = JSON.stringify(
  {
    error: {
      message: "Name is required.",
      code: -32600,
      data: { code: "BAD_REQUEST", httpStatus: 400, path: "sites.add", fieldErrors: { name: ["Name is required."] } },
    },
  },
  null,
  2,
);

const linkClass = "font-medium text-brand-700 underline hover:text-brand-800";

/** The CSV downloads (src/server/api/openapi/downloads.ts, as the document lists them), each with its curl. */
function Downloads({ origin }: { origin: string }) {
  const { t } = usePage();
  return (
    <ul className="flex flex-col gap-4">
      {downloadEntries.map(({ key, path, permission, example }) => (
        <li key={path}>
          <p>{t(`apiDocs.downloads.${key}`)}</p>
          <p className="text-sm">
            <code className="font-mono font-semibold">GET</code> <code className="font-mono break-all">{path}</code>
            {permission && (
              <>
                {" · "}
                <code className="font-mono break-all">{permission}</code>
              </>
            )}
          </p>
          <CodeBlock>{curlDownload(origin, example.path, example.file)}</CodeBlock>
        </li>
      ))}
    </ul>
  );
}

/** The lists that page, with the input field that takes the cursor (read from their schemas). */
function PagingList() {
  const { t } = usePage();
  const paged = documentedCalls().flatMap(({ operation }) => {
    const field = pagingField(operation);
    return field ? [{ id: operation.operationId, field }] : [];
  });
  return (
    <>
      <p>{t("apiDocs.paging.list")}</p>
      <ul className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {paged.map(({ id, field }) => (
          <li key={id}>
            <a
              href={`${apiGroupHref(id.split(".")[0] ?? "")}#${id}`}
              className="font-mono break-all text-brand-700 hover:underline"
            >
              {id}
            </a>{" "}
            <code className="font-mono text-slate-700">{field}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The story the issue names: radios from a CSV, a group, a phased rollout to it, its result. */
const walkthrough = [
  ["import", "devices.importCsv", "POST"],
  ["group", "radioGroups.create", "POST"],
  ["deploy", "deployments.create", "POST"],
  ["follow", "deployments.get", "GET"],
  ["failed", "deployments.radios", "GET"],
] as const;

function Walkthrough({ origin }: { origin: string }) {
  const { t } = usePage();
  return (
    <ol className="flex list-decimal flex-col gap-4 pl-5">
      {walkthrough.map(([step, procedure, method]) => (
        <li key={step}>
          <p>
            {t(`apiDocs.walkthrough.${step}`)}{" "}
            <a
              href={`${apiGroupHref(procedure.split(".")[0] ?? "")}#${procedure}`}
              className="font-mono text-sm break-all text-brand-700 hover:underline"
            >
              {procedure}
            </a>
          </p>
          <CodeBlock>
            {method === "GET"
              ? curlQuery(origin, procedure, exampleInputs[procedure])
              : curlMutation(origin, procedure, exampleInputs[procedure])}
          </CodeBlock>
        </li>
      ))}
    </ol>
  );
}

function Groups() {
  const { t } = usePage();
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {procedureGroups().map((group) => (
        <li key={group} className="rounded-lg border border-slate-200 bg-white p-3">
          <a href={apiGroupHref(group)} className={linkClass}>
            {t(`apiDocs.routerTitles.${group}`)}
          </a>{" "}
          <span className="text-sm text-slate-600">({t("apiDocs.procedures.count", { count: callsOf(group).length })})</span>
          <p className="mt-1 text-sm text-slate-700">{t(`apiDocs.routers.${group}`)}</p>
        </li>
      ))}
    </ul>
  );
}

function ApiOverview({ data }: { data: Data }) {
  const { t } = usePage();
  const { origin } = data;
  return (
    <>
      <PageHeader title={String(t("routes.apiDocs"))} description={t("apiDocs.lead")} />
      <div className="flex flex-col gap-8 lg:flex-row-reverse lg:items-start lg:justify-between">
        <nav
          aria-labelledby="api-toc-heading"
          className="rounded-lg border border-slate-200 bg-white p-4 lg:sticky lg:top-4 lg:w-72"
        >
          <h2 id="api-toc-heading" className="text-sm font-semibold tracking-wide text-slate-900 uppercase">
            {t("apiDocs.contents")}
          </h2>
          <ol className="mt-2 flex flex-col gap-1 text-sm">
            {sections.map((id) => (
              <li key={id}>
                <a href={`#${id}`} className="text-brand-700 hover:underline">
                  {t(`apiDocs.${id}.title`)}
                </a>
              </li>
            ))}
          </ol>
          <p className="mt-3 text-sm">
            <a href={openApiHref} className="text-brand-700 hover:underline" type="application/json">
              {t("apiDocs.openapi")}
            </a>
          </p>
        </nav>
        <article className="flex max-w-3xl min-w-0 flex-1 flex-col gap-8">
          <DocSection id="tokens" title={t("apiDocs.tokens.title")}>
            <p>{t("apiDocs.tokens.p1")}</p>
            <p>
              <a href={apiTokensHref} className={linkClass}>
                {t("apiDocs.tokens.link")}
              </a>
            </p>
            <p>{t("apiDocs.tokens.p2")}</p>
          </DocSection>
          <DocSection id="header" title={t("apiDocs.header.title")}>
            <p>{t("apiDocs.header.p1")}</p>
            <CodeBlock>{"Authorization: Bearer ctk_…"}</CodeBlock>
            <p>{t("apiDocs.tokenPlaceholder")}</p>
            <CodeBlock>{curlQuery(origin, "accounts.list", { orgId: "org_metro" })}</CodeBlock>
          </DocSection>
          <DocSection id="wire" title={t("apiDocs.wire.title")}>
            <p>{t("apiDocs.wire.p1")}</p>
            <p>{t("apiDocs.wire.p2")}</p>
          </DocSection>
          <DocSection id="errors" title={t("apiDocs.errors.title")}>
            <p>{t("apiDocs.errors.p1")}</p>
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white px-3">
              {errorRows.map(([status, code]) => (
                <li key={code} className="py-2 text-sm">
                  <code className="font-mono font-semibold">{status}</code>{" "}
                  <code className="font-mono font-semibold break-all">{code}</code>
                  <span className="block text-slate-700">{t(`apiDocs.errors.${code}`)}</span>
                </li>
              ))}
            </ul>
            <p>{t("apiDocs.errorExample")}</p>
            <CodeBlock>{errorExample}</CodeBlock>
          </DocSection>
          <DocSection id="limits" title={t("apiDocs.limits.title")}>
            <p>{t("apiDocs.limits.p1")}</p>
            <CodeBlock>{"HTTP/1.1 429 Too Many Requests\nRetry-After: 12"}</CodeBlock>
          </DocSection>
          <DocSection id="paging" title={t("apiDocs.paging.title")}>
            <p>{t("apiDocs.paging.p1")}</p>
            <PagingList />
          </DocSection>
          <DocSection id="downloads" title={t("apiDocs.downloads.title")}>
            <p>{t("apiDocs.downloads.p1")}</p>
            <Downloads origin={origin} />
          </DocSection>
          <DocSection id="walkthrough" title={t("apiDocs.walkthrough.title")}>
            <p>{t("apiDocs.walkthrough.p1")}</p>
            <Walkthrough origin={origin} />
          </DocSection>
          <DocSection id="procedures" title={t("apiDocs.procedures.title")}>
            <p>{t("apiDocs.procedures.p1")}</p>
            <Groups />
          </DocSection>
        </article>
      </div>
    </>
  );
}

/** /docs/api: how to reach the API, for integrators, signed in or not; the procedures are a page per group. */
export const apiDocsPage = definePage<Data>({
  load: async (c) => ({ origin: new URL(c.req.url).origin }),
  Component: ApiOverview,
});
