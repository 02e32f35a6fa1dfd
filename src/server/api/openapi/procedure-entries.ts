import { z } from "zod";
import type { ProcedureMeta } from "../trpc";
import type { JsonSchema } from "./types";

/** What the document needs to know about one procedure, read from the router itself. */
export type ProcedureEntry = {
  /** "devices.list": the operationId and the path after /api/. */
  path: string;
  /** The router ("devices"): the operation's tag. */
  router: string;
  type: "query" | "mutation";
  permission: string | undefined;
  /** The JSON Schema of what the caller sends (null when the procedure takes no input). */
  input: JsonSchema | null;
};

type ProcedureDef = { type: string; inputs: z.ZodType[]; meta?: ProcedureMeta };
/** A tRPC router; at run time its procedures are a flat map by dotted path (its type says nested). */
type RouterLike = { _def: { procedures: object } };

/**
 * zod's own converter, on the input side (defaults make fields optional), in draft 2020-12 (the
 * dialect of OpenAPI 3.1); a type JSON cannot say (a transform's output, a custom check) becomes
 * {} rather than failing the build.
 */
export function inputSchemaOf(inputs: readonly z.ZodType[]): JsonSchema | null {
  const [first, ...rest] = inputs;
  if (!first) return null;
  const merged = rest.reduce<z.ZodType>((all, next) => z.intersection(all, next), first);
  const { $schema: _dialect, ...schema } = z.toJSONSchema(merged, {
    io: "input",
    unrepresentable: "any",
    target: "draft-2020-12",
    // A recursive input would need $defs, whose "#/$defs/…" refs mean the document's root once
    // embedded: fail the build here rather than write a document that does not resolve.
    cycles: "throw",
  }) as JsonSchema;
  if ("$defs" in schema) throw new Error("An input with shared definitions ($defs): give them a place in components.schemas");
  return schema;
}

/** The named procedures of a tRPC router, in the order given; a name the router lacks throws (a typo in the list). */
export function procedureEntries(router: RouterLike, paths: Iterable<string>): ProcedureEntry[] {
  const procedures = router._def.procedures as Record<string, { _def: ProcedureDef } | undefined>;
  return [...paths].map((path) => {
    const procedure = procedures[path];
    if (!procedure) throw new Error(`No procedure ${path} in the router`);
    const def = procedure._def;
    if (def.type !== "query" && def.type !== "mutation") throw new Error(`${path} is a ${def.type}, not a query or mutation`);
    return {
      path,
      router: path.split(".")[0] ?? path,
      type: def.type,
      permission: def.meta?.permission,
      input: inputSchemaOf(def.inputs),
    };
  });
}
