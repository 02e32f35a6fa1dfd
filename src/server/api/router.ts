import { accountsRouter } from "./routers/accounts";
import { activityLogsRouter } from "./routers/activity-logs";
import { apiTokensRouter } from "./routers/api-tokens";
import { archivesRouter } from "./routers/archives";
import { commandBatchesRouter } from "./routers/command-batches";
import { commandsRouter } from "./routers/commands";
import { deploymentsRouter } from "./routers/deployments";
import { deviceRedirectsRouter } from "./routers/device-redirects";
import { devicesRouter } from "./routers/devices";
import { fcCasesRouter } from "./routers/fc-cases";
import { firmwareRouter } from "./routers/firmware";
import { identityProvidersRouter } from "./routers/identity-providers";
import { locationsRouter } from "./routers/locations";
import { notificationsRouter } from "./routers/notifications";
import { organizationsRouter } from "./routers/organizations";
import { profilesRouter } from "./routers/profiles";
import { radioGroupsRouter } from "./routers/radio-groups";
import { reportsRouter } from "./routers/reports";
import { rulesRouter } from "./routers/rules";
import { sitesRouter } from "./routers/sites";
import { subscriptionsRouter } from "./routers/subscriptions";
import { usersRouter } from "./routers/users";
import { createCallerFactory, router } from "./trpc";

/** Every typed procedure (spec §7), served at /api/<router>.<procedure>. */
export const appRouter = router({
  accounts: accountsRouter,
  activityLogs: activityLogsRouter,
  apiTokens: apiTokensRouter,
  archives: archivesRouter,
  commands: commandsRouter,
  commandBatches: commandBatchesRouter,
  deployments: deploymentsRouter,
  deviceRedirects: deviceRedirectsRouter,
  devices: devicesRouter,
  fcCases: fcCasesRouter,
  firmware: firmwareRouter,
  identityProviders: identityProvidersRouter,
  locations: locationsRouter,
  notifications: notificationsRouter,
  organizations: organizationsRouter,
  profiles: profilesRouter,
  radioGroups: radioGroupsRouter,
  reports: reportsRouter,
  rules: rulesRouter,
  sites: sitesRouter,
  subscriptions: subscriptionsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
