import { Hono } from "hono";
import { translatedErrors } from "../routes/settings/procedure-refusal";
import { routes } from "../routes/table";
import type { FormState, RouteContext, RouteDefinition } from "../routes/types";
import { prefetchAccountContext } from "./current-account";
import type { AppEnv } from "./env";
import { AppError } from "./errors";
import { translatorFor } from "./i18n/i18n";
import { settleSession } from "./middleware/session";
import { setFlash } from "./render/flash";
import { renderPage } from "./render/render-page";
import { markSignedInPage } from "./render/signed-in-pages";

const signInRoute = routes.find((route) => route.path === "/sign-in");

type Loaded = { data: unknown } | Response;

/** Access first, then the page's data (signed-out visitors of a signed-in route get the sign-in form). */
async function loadRoute(c: RouteContext, route: RouteDefinition): Promise<Loaded> {
  const user = c.get("user");
  if (route.access === "signed-in" && !user && signInRoute) return showRoute(c, signInRoute, { status: 401 });
  if (route.permission && !user?.permissions[route.permission]) throw new AppError("FORBIDDEN");
  prefetchAccountContext(c);
  const data = route.page.load ? await route.page.load(c) : undefined;
  return data instanceof Response ? data : { data };
}

/**
 * Renders a route's page: access, then its data, then the whole document, streamed. A page
 * begun on the session hint (middleware/session.ts) renders only once the session has said it
 * was loaded for the right person; else, or if its load wanted to write, it loads again.
 */
async function showRoute(
  c: RouteContext,
  route: RouteDefinition,
  { form, status = 200 }: { form?: FormState; status?: number } = {},
): Promise<Response> {
  const loading = loadRoute(c, route);
  const speculation = c.get("speculation");
  if (speculation) {
    // Settled either way: a failure is the page's own only if the session confirms the guess.
    await loading.catch(() => undefined);
    const confirmed = await settleSession(c);
    if (!confirmed || speculation.refusedWrite) return showRoute(c, route, { form, status });
  }
  const loaded = await loading;
  if (loaded instanceof Response) return loaded;
  const { data } = loaded;
  const { Component } = route.page;
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  return renderPage(c, {
    title: route.title,
    titleText: route.page.title?.(data, t),
    // A refused post: "Error: " before the title (GOV.UK), as the form's error summary says.
    failed: status >= 400 && Object.keys(form?.errors ?? {}).length > 0,
    status,
    toaster: route.page.toaster,
    styleSource: route.page,
    body: <Component data={data} params={c.req.param()} form={form} />,
  });
}

/**
 * A form posted to its page. Without JavaScript the browser gets a redirect (with a flash)
 * or the page again with the typed values and errors. An island that submits with
 * `Accept: application/json` gets the same outcome as JSON, errors already translated.
 */
async function runAction(c: RouteContext, route: RouteDefinition) {
  const action = route.page.action;
  if (!action) return c.notFound();
  const wantsJson = (c.req.header("Accept") ?? "").includes("application/json");
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  // A form of a signed-in route is guarded like its page: no session, no action.
  const user = c.get("user");
  if (route.access === "signed-in" && !user) {
    if (wantsJson) return c.json({ ok: false, errors: { form: String(t("errors.signInFirst")) } }, 401);
    return showRoute(c, route);
  }
  if (route.permission && !user?.permissions[route.permission]) throw new AppError("FORBIDDEN");
  const result = await action(c);
  if (wantsJson) {
    if (result.ok) {
      // The page the island navigates to shows the flash as a toast, as after a plain post.
      if (result.flash) setFlash(c, result.flash);
      return c.json({ ok: true, redirect: result.redirect });
    }
    // A refusal with values ("2 seats in use") is in words already: translated once, as pages do.
    const errors = translatedErrors(result.form.errors, t);
    return c.json({ ok: false, errors }, result.status);
  }
  if (result.ok) {
    if (result.flash) setFlash(c, result.flash);
    return c.redirect(result.redirect, 303);
  }
  return showRoute(c, route, { form: result.form, status: result.status });
}

/** Every route of the table, as GET (the page) and, where it has a form, POST (its action). */
export function pageRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const route of routes) {
    const show = (c: RouteContext) => showRoute(c, route);
    if (route.access === "signed-in") markSignedInPage(show);
    app.get(route.path, show);
    if (route.page.action) app.post(route.path, (c) => runAction(c, route));
  }
  return app;
}
