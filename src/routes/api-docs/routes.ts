import type { RouteDefinition } from "../types";
import { apiGroupPage } from "./group";
import { apiDocsPage } from "./overview";

/** The API reference (issue 27): public, for integrators and whoever evaluates the product. */
export const apiDocsRoutes: RouteDefinition[] = [
  { path: "/docs/api", title: "routes.apiDocs", access: "public", page: apiDocsPage },
  { path: "/docs/api/:group", title: "routes.apiDocsGroup", access: "public", page: apiGroupPage },
];
