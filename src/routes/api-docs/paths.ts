/** The API reference (issue 27): an overview at /docs/api and one page per group of procedures. */
export const apiDocsHref = "/docs/api";
export const apiGroupHref = (group: string) => `${apiDocsHref}/${encodeURIComponent(group)}`;
export const openApiHref = "/api/openapi.json";
/** Where an organization's API tokens are made (organization settings, issue 27). */
export const apiTokensHref = "/settings/api-tokens";
