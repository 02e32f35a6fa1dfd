import type { ReactNode } from "react";
import { renderToReadableStream } from "react-dom/server.edge";
import type { RouteContext } from "@/routes/types";
import { Document } from "@/ui/shell/document";
import { currentAccountOf } from "../current-account";
import { isDevelopment } from "../env";
import { translatorFor } from "../i18n/i18n";
import { pendingChangesOf } from "../pending-changes";
import { assetTags } from "./assets";
import { takeFlash } from "./flash";
import { IslandCollector, type PageContext, PageContextValue } from "./page-context";
import { pageStylesOf } from "./page-styles";

type RenderOptions = {
  /** Translation key of the page title. */
  title: string;
  /** The whole title, already translated, when the key alone does not name the page (tab pages). */
  titleText?: string;
  status?: number;
  /** The page shows a form's errors after a refused post: the title says so first. */
  failed?: boolean;
  /** Kept for callers of old: toasts now load with the first one shown, on any page. */
  toaster?: boolean;
  body: ReactNode;
  /**
   * What the page is rendered from (a route's page definition, an exported component): its
   * module's CSS is inlined. Without it, the whole stylesheet.
   */
  styleSource?: unknown;
};

export function createPageContext(c: RouteContext, styleSource?: unknown): PageContext {
  const settings = c.get("settings");
  const language = c.get("language");
  const url = new URL(c.req.url);
  return {
    t: translatorFor(language, settings.brandNamespace),
    language,
    settings,
    currentPath: url.pathname + url.search,
    nonce: c.get("nonce"),
    assets: assetTags,
    styles: pageStylesOf(styleSource),
    flash: takeFlash(c),
    user: c.get("user"),
    islands: new IslandCollector(),
    development: isDevelopment(c.env),
    pendingChanges: pendingChangesOf(c),
  };
}

/** Renders a page inside the document shell and streams it. */
export async function renderPage(
  c: RouteContext,
  { title, titleText, status = 200, failed = false, body, styleSource }: RenderOptions,
): Promise<Response> {
  const page = createPageContext(c, styleSource);
  page.currentAccount = await currentAccountOf(c);
  const stream = await renderToReadableStream(
    <PageContextValue value={page}>
      <Document
        title={`${failed ? String(page.t("errorSummary.titlePrefix")) : ""}${titleText ?? String(page.t(title))}`}
        signedIn={c.get("user") !== null}
      >
        {body}
      </Document>
    </PageContextValue>,
    {
      nonce: page.nonce,
      onError(error) {
        console.error("render failed", error);
      },
    },
  );
  c.header("Content-Type", "text/html; charset=utf-8");
  // Pages depend on the session, the language cookie and the flash: never cache them shared.
  c.header("Cache-Control", "no-store");
  c.header("Vary", "Cookie, Accept-Language");
  return c.body(stream, status as 200);
}
