import { accountsRouter } from "./routers/accounts";
import { identityProvidersRouter } from "./routers/identity-providers";
import { organizationsRouter } from "./routers/organizations";
import { subscriptionsRouter } from "./routers/subscriptions";
import { usersRouter } from "./routers/users";
import { createCallerFactory, router } from "./trpc";

/** Every typed procedure (spec §7), served at /api/<router>.<procedure>. */
export const appRouter = router({
  accounts: accountsRouter,
  identityProviders: identityProvidersRouter,
  organizations: organizationsRouter,
  subscriptions: subscriptionsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
