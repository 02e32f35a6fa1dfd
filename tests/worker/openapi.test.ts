import { describe, expect, it } from "vitest";
import { integratorDownloads, integratorProcedures } from "@/server/api/integrator-procedures";
import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { downloadEntries, samplePath } from "@/server/api/openapi/downloads";
import { exampleInputs } from "@/server/api/openapi/examples";
import { servedDocument } from "@/server/api/openapi/served-document";
import type { Operation } from "@/server/api/openapi/types";
import { appRouter } from "@/server/api/router";
import { request } from "./helpers";

// The integrators' API document (issue 27): generated from the router, committed, served as is.

const built = buildOpenApiDocument();
const committed = servedDocument();

type ZodLike = { safeParse: (value: unknown) => { success: boolean; error?: unknown } };
const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: { inputs: ZodLike[] } }> }).procedures;

function operations(document = committed): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [path, method, operation as Operation] as [string, string, Operation]),
  );
}

const apiOperations = () => operations().filter(([path]) => path.startsWith("/api/"));

describe("the committed document", () => {
  it("is what the router gives today (else run `npm run openapi`)", () => {
    // A procedure's input, the list or a summary changed without the document: regenerate and commit it.
    expect(committed, "docs/api/openapi.json is out of date: run `npm run openapi` and commit it").toEqual(built);
  });

  it("lists exactly the procedures a token may call, each once, with its method", () => {
    const listed = apiOperations().map(([, , operation]) => operation.operationId);
    expect(listed.toSorted()).toEqual([...integratorProcedures].toSorted());
    for (const [path, method, operation] of apiOperations()) {
      expect(path).toBe(`/api/${operation.operationId}`);
      const input = method === "get" ? operation.parameters?.find((p) => p.name === "input") : operation.requestBody;
      expect(input?.required, operation.operationId).toBe(true);
    }
  });

  it("is OpenAPI 3.1 in shape: every operation has an id, a summary, a tag, responses and the bearer scheme", () => {
    expect(committed.openapi).toMatch(/^3\.1\.\d+$/);
    expect(committed.info.title).not.toBe("");
    expect(committed.servers[0]?.url).toBe("/");
    expect(committed.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    const tags = new Set(committed.tags.map((tag) => tag.name));
    const ids = new Set<string>();
    for (const [path, method, operation] of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(["get", "post"], where).toContain(method);
      expect(operation.operationId, where).toMatch(/^[A-Za-z.]+$/);
      expect(ids.has(operation.operationId), where).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary.length, where).toBeGreaterThan(10);
      expect(operation.security, where).toEqual([{ bearerAuth: [] }]);
      for (const tag of operation.tags) expect(tags.has(tag), where).toBe(true);
      expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404", "429"]));
    }
  });

  it("resolves every $ref it makes, and 429 says Retry-After", () => {
    const text = JSON.stringify(committed);
    for (const [, ref] of text.matchAll(/"\$ref":"#\/([^"]+)"/g)) {
      const target = (ref ?? "").split("/").reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], committed);
      expect(target, ref).toBeDefined();
    }
    expect(committed.components.responses.TooManyRequests).toMatchObject({ headers: { "Retry-After": expect.anything() } });
    for (const [path, , operation] of operations()) {
      expect(operation.responses["429"], path).toBeDefined();
      const tooMany = operation.responses["429"] as { $ref?: string; headers?: unknown };
      if (!tooMany.$ref) expect(tooMany.headers, path).toMatchObject({ "Retry-After": expect.anything() });
    }
  });

  it("names the permission a procedure needs", () => {
    const byId = new Map(apiOperations().map(([, , operation]) => [operation.operationId, operation]));
    expect(byId.get("devices.importCsv")?.["x-permission"]).toBe("manage-devices");
    expect(byId.get("deployments.create")?.["x-permission"]).toBe("create-deployments");
    expect(byId.get("accounts.details")?.["x-permission"]).toBeUndefined();
  });

  it("has an example input for every procedure, which its own input check accepts", () => {
    for (const path of integratorProcedures) {
      const example = exampleInputs[path];
      expect(example, path).toBeDefined();
      for (const input of procedures[path]?._def.inputs ?? []) {
        const parsed = input.safeParse(example);
        expect(parsed.success, `${path}: ${JSON.stringify(parsed.error)}`).toBe(true);
      }
    }
  });

  it("lists the CSV downloads a token may fetch, exactly", () => {
    for (const download of downloadEntries) {
      expect(
        integratorDownloads.some((pattern) => pattern.test(samplePath(download.path))),
        download.path,
      ).toBe(true);
      expect(committed.paths[download.path]?.get?.operationId).toBe(`download.${download.key}`);
      const example = new URL(download.example.path, "http://x.test").pathname;
      expect(
        integratorDownloads.some((pattern) => pattern.test(example)),
        download.example.path,
      ).toBe(true);
    }
    for (const pattern of integratorDownloads) {
      expect(
        downloadEntries.some((download) => pattern.test(samplePath(download.path))),
        String(pattern),
      ).toBe(true);
    }
  });
});

describe("GET /api/openapi.json", () => {
  it("serves the committed document to anyone, as cacheable JSON", async () => {
    const response = await request("/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("Cache-Control")).toContain("public");
    expect(await response.json()).toEqual(committed);
  });

  it("answers 304 to a client that has this version", async () => {
    const first = await request("/api/openapi.json");
    const tag = first.headers.get("ETag") ?? "";
    expect(tag).toMatch(/^"[0-9a-f]{24}"$/);
    const again = await request("/api/openapi.json", { headers: { "If-None-Match": `W/${tag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await request("/api/openapi.json", { headers: { "If-None-Match": '"0000"' } });
    expect(other.status).toBe(200);
  });
});

describe("every documented path", () => {
  it("answers on this server (asks for a token, never 404)", async () => {
    for (const [path, method, operation] of operations()) {
      const example = JSON.stringify(exampleInputs[operation.operationId] ?? {});
      const url =
        method === "get" && path.startsWith("/api/") ? `${path}?input=${encodeURIComponent(example)}` : samplePath(path);
      const init =
        method === "post"
          ? { method: "POST", body: example, headers: { "Content-Type": "application/json" } }
          : { method: "GET" };
      const response = await request(url, init);
      expect(response.status, `${method.toUpperCase()} ${path}`).toBe(401);
    }
  });
});
