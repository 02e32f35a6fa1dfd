import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { translatorFor } from "@/server/i18n/i18n";
import type { RouteContext } from "../types";

/** The route error screen's NOT_FOUND, in the page's language. */
export function notFound(c: RouteContext, key: string): AppError {
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  return new AppError("NOT_FOUND", String(t(key)));
}

/** A profile of the account in the path (another account's, or a template, is not found here). */
export async function accountProfile(c: RouteContext, accountId: string, profileId: string) {
  const profile = await api(c).profiles.details({ id: profileId });
  if (profile.accountId !== accountId) throw notFound(c, "errors.profileNotFound");
  return profile;
}

/** A template of the type in the path (an account's profile, or another type, is not found here). */
export async function templateOfType(c: RouteContext, type: string, profileId: string) {
  const profile = await api(c).profiles.details({ id: profileId });
  if (profile.accountId !== null || profile.type !== type) throw notFound(c, "errors.profileNotFound");
  return profile;
}
