/** The wrangler vars that override the build-time settings (wrangler.toml `[vars]`). */
export type SettingVariable =
  | "APP_TITLE"
  | "BRAND_NAME"
  | "BRAND_NAMESPACE"
  | "WELCOME_MODE"
  | "DEVICE_BRAND_FILTER"
  | "SUBSCRIPTION_MODE"
  | "HIDE_CASE_USERS"
  | "SHOW_DOCUMENTATION"
  | "DEFAULT_IDENTITY_PROVIDER_ID"
  | "DEFAULT_IDENTITY_PROVIDER_NAME"
  | "DEFAULT_IDENTITY_PROVIDER_ISSUER"
  | "DEFAULT_IDENTITY_PROVIDER_CLIENT_ID"
  | "HELP_URL"
  | "DNS_RESOLVER_URL"
  | "PRIVACY_URL"
  | "TERMS_URL"
  | "LOGO_WIDE_URL"
  | "LOGO_SMALL_URL"
  | "PASSKEYS_ENABLED";

/**
 * The build-time settings of spec §1 in one place. The defaults describe a neutral,
 * fictional vendor; each can be overridden by a wrangler var, so a vendor rebrands the
 * product without changing code.
 */
export type Settings = {
  appTitle: string;
  brandName: string;
  /** The i18next namespace whose strings win over "default" (locales/<lng>/<ns>.json). */
  brandNamespace: string;
  welcomeMode: "boxes" | "list";
  deviceBrandFilter: string;
  subscriptionMode: string;
  hideCaseUsers: boolean;
  showDocumentation: boolean;
  defaultIdentityProvider: { id: string; name: string };
  /**
   * Where the default identity provider's single sign-on goes (its OIDC issuer and this app's
   * client id there); null until configured. The client secret is an env secret, not a setting.
   */
  defaultIdentityProviderIssuer: string | null;
  defaultIdentityProviderClientId: string | null;
  /** The help link is shown only when this is set (spec §1). */
  helpUrl: string | null;
  privacyUrl: string;
  termsUrl: string;
  logoWideUrl: string;
  logoSmallUrl: string;
  /** The passkey feature flag: passkeys are offered only when the variable is the string 'true'. */
  passkeysEnabled: boolean;
  /** The DNS-over-HTTPS resolver (JSON API) that checks the TXT records proving single sign-on domains. */
  dnsResolverUrl: string;
  copyrightYear: number;
};

export const defaultSettings: Settings = {
  appTitle: "Configuration Tool",
  brandName: "Northwind Radio",
  brandNamespace: "northwind",
  welcomeMode: "boxes",
  deviceBrandFilter: "northwind",
  subscriptionMode: "northwind",
  hideCaseUsers: true,
  showDocumentation: true,
  defaultIdentityProvider: { id: "northwind", name: "Northwind ID" },
  defaultIdentityProviderIssuer: null,
  defaultIdentityProviderClientId: null,
  helpUrl: null,
  privacyUrl: "https://www.northwind-radio.example/privacy",
  termsUrl: "https://www.northwind-radio.example/terms-of-use",
  logoWideUrl: "/logo-wide.svg",
  logoSmallUrl: "/logo-small.svg",
  passkeysEnabled: true,
  dnsResolverUrl: "https://cloudflare-dns.com/dns-query",
  copyrightYear: 2025,
};

function flag(value: string | undefined, fallback: boolean): boolean {
  return value === undefined || value === "" ? fallback : value === "true";
}

function text(value: string | undefined, fallback: string): string {
  return value === undefined || value.trim() === "" ? fallback : value.trim();
}

/** The settings in force for this Worker: the defaults, overridden by the wrangler vars set. */
export function resolveSettings(env: Partial<Record<SettingVariable, string>>): Settings {
  const d = defaultSettings;
  return {
    appTitle: text(env.APP_TITLE, d.appTitle),
    brandName: text(env.BRAND_NAME, d.brandName),
    brandNamespace: text(env.BRAND_NAMESPACE, d.brandNamespace),
    welcomeMode: env.WELCOME_MODE === "list" ? "list" : d.welcomeMode,
    deviceBrandFilter: text(env.DEVICE_BRAND_FILTER, d.deviceBrandFilter),
    subscriptionMode: text(env.SUBSCRIPTION_MODE, d.subscriptionMode),
    hideCaseUsers: flag(env.HIDE_CASE_USERS, d.hideCaseUsers),
    showDocumentation: flag(env.SHOW_DOCUMENTATION, d.showDocumentation),
    defaultIdentityProvider: {
      id: text(env.DEFAULT_IDENTITY_PROVIDER_ID, d.defaultIdentityProvider.id),
      name: text(env.DEFAULT_IDENTITY_PROVIDER_NAME, d.defaultIdentityProvider.name),
    },
    defaultIdentityProviderIssuer: env.DEFAULT_IDENTITY_PROVIDER_ISSUER?.trim() || d.defaultIdentityProviderIssuer,
    defaultIdentityProviderClientId: env.DEFAULT_IDENTITY_PROVIDER_CLIENT_ID?.trim() || d.defaultIdentityProviderClientId,
    helpUrl: env.HELP_URL?.trim() ? env.HELP_URL.trim() : d.helpUrl,
    privacyUrl: text(env.PRIVACY_URL, d.privacyUrl),
    termsUrl: text(env.TERMS_URL, d.termsUrl),
    logoWideUrl: text(env.LOGO_WIDE_URL, d.logoWideUrl),
    logoSmallUrl: text(env.LOGO_SMALL_URL, d.logoSmallUrl),
    passkeysEnabled: env.PASSKEYS_ENABLED === undefined ? d.passkeysEnabled : env.PASSKEYS_ENABLED === "true",
    dnsResolverUrl: text(env.DNS_RESOLVER_URL, d.dnsResolverUrl),
    copyrightYear: d.copyrightYear,
  };
}
