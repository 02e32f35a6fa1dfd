import type { Context } from "hono";
import { findProviderSignInConfig, type ProviderSignInConfig } from "../data/identity-providers";
import type { AppEnv } from "../env";

/** Which provider an id names, and whether single sign-on with it can start here. */
export type ProviderLookup =
  | { state: "ready"; provider: ProviderSignInConfig }
  /** The default identity provider of the settings, whose issuer or client id is not set. */
  | { state: "not-configured"; name: string }
  | { state: "unknown" };

/**
 * The provider behind /api/auth/signin/{id}: an organization's provider from D1, or the
 * default one of the settings (DEFAULT_IDENTITY_PROVIDER_*), which belongs to no
 * organization: the deployer trusts it for every organization.
 */
export async function lookUpProvider(c: Context<AppEnv>, id: string): Promise<ProviderLookup> {
  const settings = c.get("settings");
  if (id === settings.defaultIdentityProvider.id) {
    const issuer = settings.defaultIdentityProviderIssuer;
    const clientId = settings.defaultIdentityProviderClientId;
    if (!issuer || !clientId) return { state: "not-configured", name: settings.defaultIdentityProvider.name };
    return {
      state: "ready",
      provider: {
        id,
        orgId: null,
        name: settings.defaultIdentityProvider.name,
        issuer,
        clientId,
        clientSecret: c.env.DEFAULT_IDENTITY_PROVIDER_CLIENT_SECRET ?? "",
        emailDomains: [],
      },
    };
  }
  if (id.length > 64) return { state: "unknown" };
  const provider = await findProviderSignInConfig(c.env.DB, id);
  return provider ? { state: "ready", provider } : { state: "unknown" };
}

/** Plain-http issuers (the local demo provider) are allowed only in the local demo and development. */
export function allowsInsecureIssuer(env: AppEnv["Bindings"]): boolean {
  return env.APP_ENV === "local" || env.APP_ENV === "development";
}
