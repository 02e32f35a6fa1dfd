import * as oauth from "oauth4webapi";
import type { ProviderSignInConfig } from "../data/identity-providers";

/**
 * The OpenID Connect relying party, with oauth4webapi (it runs on Workers): discovery,
 * the authorization request (code flow, PKCE S256, state, nonce), the code exchange and the
 * ID token's validation (issuer, audience, nonce, expiry). Nothing here knows about users.
 */

export type OidcOptions = { allowInsecure: boolean };

/** A failure talking to the provider or in what it answered; `reason` picks the message shown. */
export class SingleSignOnError extends Error {
  constructor(
    readonly reason: "provider-unreachable" | "provider-refused" | "invalid-response",
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

function requestOptions({ allowInsecure }: OidcOptions) {
  // The option exists for local, non-TLS development only; it is off when deployed.
  return allowInsecure ? { [oauth.allowInsecureRequests]: true } : {};
}

/** The provider's metadata, from its issuer's /.well-known/openid-configuration. */
export async function discover(provider: ProviderSignInConfig, options: OidcOptions): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(provider.issuer);
  let response: Response;
  try {
    response = await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...requestOptions(options) });
  } catch (error) {
    throw new SingleSignOnError("provider-unreachable", { cause: error });
  }
  try {
    const metadata = await oauth.processDiscoveryResponse(issuer, response);
    if (!metadata.authorization_endpoint || !metadata.token_endpoint) throw new Error("no authorization or token endpoint");
    return metadata;
  } catch (error) {
    throw new SingleSignOnError("invalid-response", { cause: error });
  }
}

function clientOf(provider: ProviderSignInConfig): oauth.Client {
  return { client_id: provider.clientId };
}

/** client_secret_basic unless the provider supports only client_secret_post; none for a public client. */
function clientAuthentication(metadata: oauth.AuthorizationServer, provider: ProviderSignInConfig): oauth.ClientAuth {
  if (!provider.clientSecret) return oauth.None();
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post")) {
    return oauth.ClientSecretPost(provider.clientSecret);
  }
  return oauth.ClientSecretBasic(provider.clientSecret);
}

export type LoginSecrets = { state: string; nonce: string; codeVerifier: string };

export function newLoginSecrets(): LoginSecrets {
  return {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
  };
}

/** Where the browser goes to sign in at the provider. */
export async function authorizationUrl(
  metadata: oauth.AuthorizationServer,
  provider: ProviderSignInConfig,
  secrets: LoginSecrets,
  redirectUri: string,
): Promise<URL> {
  const url = new URL(metadata.authorization_endpoint as string);
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", "openid email profile");
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(secrets.codeVerifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", secrets.state);
  url.searchParams.set("nonce", secrets.nonce);
  return url;
}

/** Who the provider says signed in. */
export type VerifiedClaims = { subject: string; email: string | null; emailVerified: boolean; name: string };

function claimsOf(source: Record<string, unknown>, subject: string): VerifiedClaims {
  const email = typeof source.email === "string" ? source.email.trim().toLowerCase() : null;
  // Some providers send "true" as a string; anything else is not verified.
  const verified = source.email_verified === true || source.email_verified === "true";
  const name = typeof source.name === "string" ? source.name.trim().slice(0, 120) : "";
  return { subject, email: email || null, emailVerified: Boolean(email) && verified, name };
}

/**
 * The provider's answer at our callback: the state checked, the code exchanged with the
 * PKCE verifier, the ID token validated (issuer, audience, nonce, expiry). When the ID token
 * carries no email, the userinfo endpoint is asked (for the same subject).
 */
export async function completeLogin(
  metadata: oauth.AuthorizationServer,
  provider: ProviderSignInConfig,
  callback: URL,
  expected: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
  options: OidcOptions,
): Promise<VerifiedClaims> {
  const client = clientOf(provider);
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(metadata, client, callback.searchParams, expected.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) throw new SingleSignOnError("provider-refused", { cause: error });
    throw new SingleSignOnError("invalid-response", { cause: error });
  }
  const auth = clientAuthentication(metadata, provider);
  let tokens: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      metadata,
      client,
      auth,
      parameters,
      expected.redirectUri,
      expected.codeVerifier,
      requestOptions(options),
    );
    tokens = await oauth.processAuthorizationCodeResponse(metadata, client, response, {
      expectedNonce: expected.nonce,
      requireIdToken: true,
    });
  } catch (error) {
    if (error instanceof TypeError) throw new SingleSignOnError("provider-unreachable", { cause: error });
    throw new SingleSignOnError("invalid-response", { cause: error });
  }
  const idToken = oauth.getValidatedIdTokenClaims(tokens);
  if (!idToken) throw new SingleSignOnError("invalid-response");
  if (typeof idToken.email === "string" || !metadata.userinfo_endpoint) return claimsOf(idToken, idToken.sub);
  try {
    const response = await oauth.userInfoRequest(metadata, client, tokens.access_token, requestOptions(options));
    const userInfo = await oauth.processUserInfoResponse(metadata, client, idToken.sub, response);
    return claimsOf({ ...userInfo, ...idToken, email: userInfo.email, email_verified: userInfo.email_verified }, idToken.sub);
  } catch (error) {
    throw new SingleSignOnError("invalid-response", { cause: error });
  }
}
