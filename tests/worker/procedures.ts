import { appRouter } from "@/server/api/router";
import type { ProcedureMeta } from "@/server/api/trpc";

type ProcedureDef = { type: "query" | "mutation" | "subscription"; meta?: ProcedureMeta };

export type Procedure = { path: string; type: ProcedureDef["type"]; meta: ProcedureMeta };

/** Every procedure of the router, read from the router itself. */
export const procedures: Procedure[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>,
).map(([path, p]) => ({ path, type: p._def.type, meta: p._def.meta ?? {} }));
