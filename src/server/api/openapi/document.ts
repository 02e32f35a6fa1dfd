import english from "../../../../locales/en/default.json";
import { integratorProcedures } from "../integrator-procedures";
import { appRouter } from "../router";
import { type DownloadEntry, downloadEntries } from "./downloads";
import {
  downloadErrors,
  errorRefs,
  errorResponses,
  errorSchema,
  mutationErrorStatuses,
  queryErrorStatuses,
  retryAfterHeader,
} from "./error-responses";
import { exampleInputs } from "./examples";
import { type ProcedureEntry, procedureEntries } from "./procedure-entries";
import type { OpenApiDocument, Operation, PathItem } from "./types";

/**
 * The OpenAPI 3.1 document of the integrators' API (issue 27), built from the router: every
 * procedure of integratorProcedures with the JSON Schema zod derives from its input, the CSV
 * downloads, the bearer token and the shared error answers. `npm run openapi` writes it to
 * docs/api/openapi.json, which is what the Worker serves; a test fails when the two differ.
 */

type Texts = {
  apiDocs: {
    routers: Record<string, string>;
    summaries: Record<string, Record<string, string>>;
    downloads: Record<string, string>;
  };
};
const texts = (english as unknown as Texts).apiDocs;

const security = [{ bearerAuth: [] }];

function summaryOf(path: string): string {
  const [router = "", name = ""] = path.split(".");
  const summary = texts.summaries[router]?.[name];
  if (!summary) throw new Error(`No summary for ${path}: add apiDocs.summaries.${router}.${name} to the locales`);
  return summary;
}

const dataResponse = {
  description: "The procedure's answer, as the screens receive it.",
  content: {
    "application/json": {
      schema: { type: "object", required: ["result"], properties: { result: { type: "object", properties: { data: {} } } } },
    },
  },
};

function operationOf(entry: ProcedureEntry): PathItem {
  const schema = entry.input ?? { type: "object" };
  const example = exampleInputs[entry.path];
  const media = { "application/json": { schema, ...(example === undefined ? {} : { example }) } };
  const operation: Operation = {
    operationId: entry.path,
    summary: summaryOf(entry.path),
    tags: [entry.router],
    security,
    ...(entry.permission ? { "x-permission": entry.permission } : {}),
    ...(entry.type === "query"
      ? { parameters: [{ name: "input", in: "query", required: true, description: "The input as JSON.", content: media }] }
      : { requestBody: { required: true, content: media } }),
    responses: {
      "200": dataResponse,
      ...errorRefs(entry.type === "query" ? queryErrorStatuses : mutationErrorStatuses),
    },
  };
  return entry.type === "query" ? { get: operation } : { post: operation };
}

function downloadOperation(download: DownloadEntry): PathItem {
  const summary = texts.downloads[download.key];
  if (!summary) throw new Error(`No summary for the download ${download.key}`);
  return {
    get: {
      operationId: `download.${download.key}`,
      summary,
      tags: ["downloads"],
      security,
      ...(download.permission ? { "x-permission": download.permission } : {}),
      parameters: download.parameters,
      responses: {
        "200": { description: "CSV with a header row (UTF-8).", content: { "text/csv": { schema: { type: "string" } } } },
        ...downloadErrors(queryErrorStatuses),
      },
    },
  };
}

/** The whole document, in a stable order (the list's), so that the committed file diffs well. */
export function buildOpenApiDocument(): OpenApiDocument {
  const entries = procedureEntries(appRouter, integratorProcedures);
  const routers = [...new Set(entries.map((entry) => entry.router))];
  const paths: Record<string, PathItem> = {};
  for (const entry of entries) paths[`/api/${entry.path}`] = operationOf(entry);
  for (const download of downloadEntries) paths[download.path] = downloadOperation(download);
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Configuration Tool API",
      version: "1",
      description:
        'The procedures the screens use, for integrators: queries are GET /api/<procedure>?input=<JSON>, mutations POST /api/<procedure> with a JSON body; answers are {"result":{"data":…}}. Authenticate with an API token (organization settings → API tokens). The reference, with examples, is at /docs/api.',
    },
    externalDocs: { description: "The reference for people, with curl examples", url: "/docs/api" },
    servers: [{ url: "/", description: "This server" }],
    security,
    tags: [
      ...routers.map((router) => ({ name: router, description: texts.routers[router] ?? router })),
      { name: "downloads", description: texts.routers.downloads ?? "downloads" },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "ctk_<secret>",
          description: "Authorization: Bearer ctk_… — an API token, created in organization settings → API tokens.",
        },
      },
      schemas: { Error: errorSchema },
      responses: errorResponses(),
      headers: { RetryAfter: retryAfterHeader },
    },
  };
}

/** The document as the committed file holds it. */
export function openApiText(document: OpenApiDocument = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
