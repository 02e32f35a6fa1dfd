import { accountsRouter } from "./routers/accounts";
import { usersRouter } from "./routers/users";
import { createCallerFactory, router } from "./trpc";

/** Every typed procedure (spec §7), served at /api/<router>.<procedure>. */
export const appRouter = router({
  accounts: accountsRouter,
  users: usersRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
