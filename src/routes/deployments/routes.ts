import type { RouteDefinition } from "@/routes/types";
import { confirmDeploymentPage } from "./confirm";
import { deploymentsListPage } from "./list";
import { deploymentPage } from "./view";

/**
 * Deployments of an account (spec §2): confirming one needs create-deployments (§6); the list
 * and each deployment's page are open to the account's users, whose actions need the flag
 * (checked by the procedures).
 */
export const deploymentRoutes: RouteDefinition[] = [
  {
    path: "/accounts/:accountId/confirm-deployment",
    title: "routes.confirmDeployment",
    access: "signed-in",
    permission: "create-deployments",
    page: confirmDeploymentPage,
  },
  { path: "/accounts/:accountId/deployments", title: "routes.deployments", access: "signed-in", page: deploymentsListPage },
  {
    path: "/accounts/:accountId/deployments/:deploymentId",
    title: "routes.deployment",
    access: "signed-in",
    page: deploymentPage,
  },
];
