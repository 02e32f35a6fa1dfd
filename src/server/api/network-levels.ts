import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { type NetworkConfigView, passphraseProblems, type StoredNetworkConfig, viewOf } from "@/schema/network-config";
import { type Inherited, inheritanceAt, type LevelConfig, type NetworkLevel } from "@/schema/network-inheritance";
import type { D1Result } from "../cloudflare";
import type { ApiContext } from "./trpc";

/** What a Network tab reads: the level's own overrides, what it inherits and the result; secrets only as "set". */
export type NetworkAtLevel = {
  version: number;
  config: NetworkConfigView;
  inherited: Inherited<NetworkConfigView>;
  effective: Inherited<NetworkConfigView>;
};

export function networkAtLevel(
  version: number,
  above: readonly LevelConfig<StoredNetworkConfig>[],
  own: LevelConfig<StoredNetworkConfig>,
): NetworkAtLevel {
  const view = (level: LevelConfig<StoredNetworkConfig>) => ({ level: level.level, config: viewOf(level.config) });
  const { inherited, effective } = inheritanceAt(above.map(view), view(own));
  return { version, config: viewOf(own.config), inherited, effective };
}

export function level(level: NetworkLevel, config: StoredNetworkConfig): LevelConfig<StoredNetworkConfig> {
  return { level, config };
}

/**
 * WPA personal networks need a passphrase, typed now or kept from before; reported like bad
 * input on the field (as accounts.updateNetworkConfig does), so forms show it where it is typed.
 */
export function assertPassphrases(ctx: Pick<ApiContext, "t">, merged: StoredNetworkConfig): void {
  const problems = passphraseProblems(merged);
  if (problems.length === 0) return;
  const issues = problems.map(({ index, message }) => ({
    code: "custom" as const,
    path: ["config", "wifi", index, "passphrase"],
    message,
    input: undefined,
  }));
  throw new TRPCError({
    code: "BAD_REQUEST",
    message: String(ctx.t(issues[0]?.message ?? "")),
    cause: new z.ZodRealError(issues),
  });
}

/** A stale write changed nothing: someone saved first (DESIGN.md §5). */
export function assertWritten(result: D1Result | undefined, t: ApiContext["t"]): void {
  if (!result?.meta.changes) throw new TRPCError({ code: "CONFLICT", message: String(t("errors.staleEdit")) });
}

/** Whether a failed batch hit an SQLite constraint (UNIQUE, FOREIGN KEY …): a race with another write. */
export function isConstraintError(error: unknown, kind: "UNIQUE" | "FOREIGN KEY"): boolean {
  return error instanceof Error && error.message.includes(`${kind} constraint failed`);
}
