import type { Context } from "hono";
import type { ReactNode } from "react";
import type { Permission } from "../schema/permissions";
import type { AppEnv } from "../server/env";
import type { Translate } from "../server/i18n/i18n";
import type { Flash } from "../server/render/flash";

export type RouteContext = Context<AppEnv>;

/** What a form post left behind when it failed: the typed values and a message per field. */
export type FormState = {
  values: Record<string, string>;
  /** Field name → translation key; "form" for a message about the whole form. */
  errors: Record<string, string>;
};

/** The outcome of a form action: go somewhere (with a flash), or show the form again. */
export type ActionResult =
  | { ok: true; redirect: string; flash?: Flash }
  // 200: the next step of a multi-step form (sign-in), shown without an error.
  | { ok: false; status: 200 | 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429; form: FormState };

export type PageProps<Data> = {
  data: Data;
  params: Record<string, string>;
  /** Present when the page is shown again after a failed post. */
  form?: FormState;
};

export type PageDefinition<Data = unknown> = {
  /** Loads what the page shows, through the same procedures the browser calls; a Response (a redirect) ends there. */
  load?: (c: RouteContext) => Promise<Data | Response>;
  Component: (props: PageProps<Data>) => ReactNode;
  /** Handles the page's form, posted to the page's own URL. */
  action?: (c: RouteContext) => Promise<ActionResult>;
  /** Obsolete: the shell loads the toaster with the first toast on any page. Ignored; kept so routes of other branches compile. */
  toaster?: boolean;
  /**
   * The <title> when the route's own title key is not enough: a tab page names its thing and
   * its tab ("Harbor Depot — Network · Site"), already translated (see tabTitle).
   */
  title?: (data: Data, t: Translate) => string;
};

/** A tab page's <title>: the thing's name, the tab, and what kind of thing it is. */
export function tabTitle(t: Translate, name: string, tabKey: string, kindKey: string): string {
  return String(t("routes.tabTitle", { name, tab: String(t(tabKey)), kind: String(t(kindKey)) }));
}

export type RouteDefinition = {
  /** Hono path pattern, e.g. /reset-password/:resetCode */
  path: string;
  /** Translation key of the title the page header and <title> show (spec §2). */
  title: string;
  access: "public" | "signed-in";
  /** The flag a signed-in user needs; without it the route error screen says it is protected. */
  permission?: Permission;
  // biome-ignore lint/suspicious/noExplicitAny: each page pairs its own loader and component
  page: PageDefinition<any>;
};

export function definePage<Data = undefined>(page: PageDefinition<Data>): PageDefinition<Data> {
  return page;
}
