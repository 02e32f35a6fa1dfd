import { usePage } from "@/server/render/page-context";
import { curlMutation, curlQuery } from "./curl";
import { type DocumentedCall, inputOf, summaryKey } from "./document-parts";
import { CodeBlock, InputFields } from "./parts";

/** One procedure: what it does, how it is called, who may, its input and a curl example. */
export function ProcedureEntry({ call, origin }: { call: DocumentedCall; origin: string }) {
  const { t } = usePage();
  const { operation, method, path } = call;
  const id = operation.operationId;
  const { schema, example } = inputOf(operation);
  const permission = operation["x-permission"];
  const curl = method === "GET" ? curlQuery(origin, id, example) : curlMutation(origin, id, example);
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-heading`} className="font-mono text-lg font-semibold break-all text-slate-900">
        {id}
      </h2>
      <p className="mt-1 text-slate-700">{t(summaryKey(id))}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="font-medium text-slate-600">{t("apiDocs.method")}</dt>
        <dd>
          <code className="font-mono font-semibold">{method}</code>
        </dd>
        <dt className="font-medium text-slate-600">{t("apiDocs.path")}</dt>
        <dd>
          <code className="font-mono break-all">{path}</code>
        </dd>
        <dt className="font-medium text-slate-600">{t("apiDocs.permission")}</dt>
        <dd>{permission ? <code className="font-mono break-all">{permission}</code> : t("apiDocs.anyRole")}</dd>
      </dl>
      <h3 className="mt-4 text-base font-semibold text-slate-900">{t("apiDocs.input")}</h3>
      <p className="mb-2 text-sm text-slate-600">{t(method === "GET" ? "apiDocs.inputQuery" : "apiDocs.inputBody")}</p>
      <InputFields schema={schema} />
      <h3 className="mt-4 text-base font-semibold text-slate-900">{t("apiDocs.example")}</h3>
      <CodeBlock>{curl}</CodeBlock>
    </section>
  );
}
