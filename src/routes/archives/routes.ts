import type { RouteDefinition } from "@/routes/types";
import { archiveDownloadPage } from "./download";

/** The downloads of archived activity, commands and deployment outcomes (issue 24); the procedure checks who may. */
export const archiveRoutes: RouteDefinition[] = [
  { path: "/accounts/:accountId/archives/:archiveId", title: "routes.archive", access: "signed-in", page: archiveDownloadPage },
];
