import { TRPCError } from "@trpc/server";
import type { Translate } from "../i18n/i18n";

/** What a refusal needs of a procedure's context (ApiContext has it). */
type Translating = { t: Translate };

/**
 * Why a procedure refused, as a translation key and the form field it concerns ("form" for
 * the whole form). The wire gets the translated message; a page that called the procedure in
 * process reads the key from the error's cause and shows it next to the field.
 */
export class Refusal extends Error {
  constructor(
    readonly key: string,
    readonly field: string,
  ) {
    super(key);
    this.name = "Refusal";
  }
}

export function refuse(ctx: Translating, code: TRPCError["code"], key: string, field = "form"): never {
  throw new TRPCError({ code, message: String(ctx.t(key)), cause: new Refusal(key, field) });
}

/**
 * A refusal whose message needs values ("3 seats are free"): the cause carries the message
 * already translated, which forms show as it is (a translation key never contains spaces).
 */
export function refuseWith(
  ctx: Translating,
  code: TRPCError["code"],
  key: string,
  values: Record<string, string | number>,
  field = "form",
): never {
  const message = String(ctx.t(key, values));
  throw new TRPCError({ code, message, cause: new Refusal(message, field) });
}
