import { router } from "../trpc";

/**
 * users.*: each concern keeps its procedures in its own module and spreads them in here:
 * passkeys (listPasskeysForUser …), linked identities (listIdentityProvidersForUser,
 * unlinkExternalIdentity …) and user administration (list, update, disable, invite …).
 */
export const usersRouter = router({});
