/**
 * The URLs of an account's sites and locations (spec §2), in one place so pages, redirects and
 * tests agree on them.
 */
export type SiteTab = "general" | "locations" | "network";
export type SiteLocationTab = "general" | "network";

const segment = encodeURIComponent;

export function accountBase(accountId: string): string {
  return `/accounts/${segment(accountId)}`;
}

export function sitesHref(accountId: string): string {
  return `${accountBase(accountId)}/sites`;
}

export function addSiteHref(accountId: string): string {
  return `${sitesHref(accountId)}/add`;
}

export function siteHref(accountId: string, siteId: string, tab?: SiteTab | "delete"): string {
  const base = `${sitesHref(accountId)}/${segment(siteId)}`;
  return tab ? `${base}/${tab}` : base;
}

export function siteLocationHref(accountId: string, siteId: string, locationId: string, tab?: SiteLocationTab): string {
  const base = `${siteHref(accountId, siteId)}/locations/${segment(locationId)}`;
  return tab ? `${base}/${tab}` : base;
}

export function locationsHref(accountId: string): string {
  return `${accountBase(accountId)}/locations`;
}

/** /locations/add, with the site chosen beforehand when coming from a site's Locations tab. */
export function addLocationHref(accountId: string, siteId?: string): string {
  const base = `${locationsHref(accountId)}/add`;
  return siteId ? `${base}?siteId=${segment(siteId)}` : base;
}

export function editLocationHref(accountId: string, locationId: string): string {
  return `${locationsHref(accountId)}/edit/${segment(locationId)}`;
}
