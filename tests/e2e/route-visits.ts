import type { Browser, BrowserContext } from "@playwright/test";
import { type Ids, makeIds, type RouteVisit, routeVisits, signInAsOwner } from "./route-list";

export type Language = "en" | "es-MX" | "fr-CA" | "pt-BR";
export const languages: Language[] = ["en", "es-MX", "fr-CA", "pt-BR"];

type Options = { baseURL: string; language: Language; viewport?: { width: number; height: number } };

/** A browser context in `language` (cookie and Accept-Language), signed in as the demo owner, and one signed out. */
export async function contextsFor(browser: Browser, { baseURL, language, viewport }: Options) {
  const make = async () => {
    const context = await browser.newContext({
      baseURL,
      locale: language,
      viewport,
      extraHTTPHeaders: { "Accept-Language": language },
    });
    await context.addCookies([{ name: "lang", value: language, url: baseURL }]);
    return context;
  };
  const signedIn = await make();
  await signInAsOwner(signedIn.request, baseURL);
  const signedOut = await make();
  return { signedIn, signedOut, close: () => Promise.all([signedIn.close(), signedOut.close()]) };
}

let ids: Promise<Ids> | undefined;

/** The run's site, location, profile, rule and template, made once per worker. */
export function sharedIds(context: BrowserContext, baseURL: string): Promise<Ids> {
  ids ??= makeIds(context.request, baseURL);
  return ids;
}

export type Visit = { visit: RouteVisit; url: string; context: BrowserContext };

/** The route list cut into `count` parts of about equal size, so two workers share a spec. */
export function parts(count: number): { name: string; index: number; count: number }[] {
  return Array.from({ length: count }, (_, index) => ({ name: `part ${index + 1} of ${count}`, index, count }));
}

/** Each route's URL with the context it is opened in. */
export function visitsOf(
  contexts: { signedIn: BrowserContext; signedOut: BrowserContext },
  found: Ids,
  part: { index: number; count: number },
): Visit[] {
  return routeVisits
    .filter((_, n) => n % part.count === part.index)
    .map((visit) => ({
      visit,
      url: visit.url(found),
      context: visit.signedOut ? contexts.signedOut : contexts.signedIn,
    }));
}
