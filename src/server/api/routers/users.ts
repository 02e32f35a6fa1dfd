import { router } from "../trpc";
import { usersAdminProcedures } from "./users-admin";
import { identityProcedures } from "./users-identities";
import { passkeyProcedures } from "./users-passkeys";

/**
 * users.*: each concern keeps its procedures in its own module and spreads them in here:
 * passkeys (listPasskeysForUser …), linked identities (listIdentityProvidersForUser,
 * unlinkExternalIdentity …) and user administration (list, update, disable, invite …).
 */
export const usersRouter = router({
  ...passkeyProcedures,
  ...identityProcedures,
  ...usersAdminProcedures,
});
