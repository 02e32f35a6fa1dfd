import { TRPCError } from "@trpc/server";
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { coalescingReads } from "@/server/data/read-coalescing";
import { requestScoped } from "@/server/data/request-memo";
import { notFoundPage } from "../routes/not-found";
import type { RouteContext } from "../routes/types";
import { type ErrorCodeName, errorCodes, httpStatusOf } from "../schema/errors";
import { ErrorScreen } from "../ui/shell/error-screen";
import { authRoutes } from "./api/auth-routes";
import { openApiRoute } from "./api/openapi/route";
import { passkeyRoutes } from "./api/passkey-routes";
import { proceduresRoute } from "./api/procedures-route";
import { ssoRoutes } from "./api/sso-routes";
import { databaseRefusal } from "./data/database-errors";
import { type AppEnv, isDevelopment } from "./env";
import { AppError } from "./errors";
import { firmwareDownload } from "./firmware/download-route";
import { DOWNLOAD_PATH } from "./firmware/download-url";
import { firmwarePartRoute } from "./firmware/part-route";
import { deviceProtocol } from "./fleet/device-protocol";
import { translatorFor } from "./i18n/i18n";
import { languageRoute } from "./language-route";
import { drainUnreadBody } from "./middleware/drain-body";
import { language } from "./middleware/language";
import { limitRequests } from "./middleware/request-limits";
import { securityHeaders } from "./middleware/security-headers";
import { session } from "./middleware/session";
import { pageRoutes } from "./pages";
import { proxyApi } from "./proxy/upstream";
import { renderPage } from "./render/render-page";
import { resolveSettings } from "./settings";
import { signOutRoute } from "./sign-out-route";

function isErrorCodeName(code: string): code is ErrorCodeName {
  return code in errorCodes;
}

function codeOfStatus(status: number): ErrorCodeName {
  const found = (Object.entries(httpStatusOf) as [ErrorCodeName, number][]).find(([, s]) => s === status);
  return found?.[0] ?? "INTERNAL_SERVER_ERROR";
}

/** The spec §8 code of anything a page threw: our errors, procedure errors, HTTP exceptions. */
function codeOf(error: unknown): ErrorCodeName {
  if (error instanceof AppError) return error.code;
  const refusal = databaseRefusal(error);
  if (refusal) return refusal.code;
  if (error instanceof TRPCError) return isErrorCodeName(error.code) ? error.code : "INTERNAL_SERVER_ERROR";
  if (error instanceof HTTPException) return codeOfStatus(error.status);
  return "INTERNAL_SERVER_ERROR";
}

/**
 * What the error screen says: a translated sentence. A page's bad input (a missing or malformed
 * `?id=`, a procedure's input check) never shows the validator's raw JSON: its first message
 * when that is one of ours, else a general sentence. Unexpected errors keep their details to
 * the log, except in development.
 */
function errorMessage(error: unknown, code: ErrorCodeName, t: (key: string) => unknown, development: boolean): string {
  const validation = error instanceof TRPCError && error.cause instanceof z.ZodError ? error.cause : null;
  if (validation) {
    const first = validation.issues[0]?.message ?? "";
    return String(t(first.startsWith("validation.") ? first : "errors.badInput"));
  }
  const expose = development || code !== "INTERNAL_SERVER_ERROR";
  if (!expose || !(error instanceof Error)) return String(t("errors.internal"));
  // Anything else that looks like machine output (JSON) is not for people either.
  return /^\s*[[{]/.test(error.message) ? String(t("errors.badInput")) : error.message;
}

/** The route error screen for anything a page threw (spec §8). */
function errorPage(c: RouteContext, error: unknown) {
  const code = codeOf(error);
  if (code === "INTERNAL_SERVER_ERROR") console.error(error);
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  const development = isDevelopment(c.env);
  // D1's own text is never shown; what input made it refuse is said in the visitor's language.
  const refusal = databaseRefusal(error);
  const message = refusal ? String(t(refusal.key)) : errorMessage(error, code, t, development);
  const stack = development && error instanceof Error ? error.stack : undefined;
  return renderPage(c, {
    title: code === "FORBIDDEN" ? "errors.protected" : "errors.title",
    status: httpStatusOf[code],
    body: <ErrorScreen code={code} message={message} stack={stack} />,
    styleSource: ErrorScreen,
  });
}

/** The Worker's whole HTTP surface, in the order requests meet it. */
export function createApp() {
  const app = new Hono<AppEnv>();

  // Each request its own database handle, so reads repeated within it (tenant checks) are
  // asked once, a write in it empties that memo (src/server/data/request-memo.ts), and reads
  // asked for side by side travel as one batch (src/server/data/read-coalescing.ts).
  app.use(async (c, next) => {
    c.env = { ...c.env, DB: requestScoped(coalescingReads(c.env.DB)) };
    await next();
  });
  // First, so that whatever answers without reading a body, the body is read before the answer leaves.
  app.use(drainUnreadBody);
  app.use(securityHeaders());
  app.use(async (c, next) => {
    c.set("settings", resolveSettings(c.env));
    c.set("nonce", c.get("secureHeadersNonce") ?? "");
    await next();
  });
  // Radios (docs/device-protocol.md): no cookies, no CSRF, no session; before all of that.
  // Firmware downloads first: the signed URL is their credential, and the protocol's middleware
  // (clock re-arming) reads D1, which a download never does.
  app.route(DOWNLOAD_PATH.slice(0, -1), firmwareDownload);
  app.route("/device/v1", deviceProtocol);
  // The API's OpenAPI document: static and public, before the session, the proxy and the procedures.
  app.route("/", openApiRoute);
  // Forms may only be posted from our own pages (DESIGN.md §5).
  app.use(csrf());
  app.use(session);
  app.use(language);
  // Body size, JSON depth, batch length, methods and form parsing, before any handler reads a body.
  app.use(limitRequests);

  // A response that involves no rendering, the baseline of the SSR benchmark.
  app.get("/healthz", (c) => c.text("ok"));
  app.use("/api/*", proxyApi);
  app.route("/", authRoutes);
  app.route("/", ssoRoutes);
  app.route("/", passkeyRoutes);
  // Before the procedures: a package's parts are raw bytes, not the JSON wire format.
  app.route("/", firmwarePartRoute);
  app.route("/", proceduresRoute);
  app.route("/", languageRoute);
  app.route("/", signOutRoute);
  app.route("/", pageRoutes());

  app.notFound((c) =>
    renderPage(c, {
      title: "notFound.title",
      status: 404,
      body: <notFoundPage.Component data={undefined} params={{}} />,
      styleSource: notFoundPage,
    }),
  );
  app.onError((error, c) => errorPage(c, error));
  return app;
}
