import type { Db } from "../data/db";
import { findIdentityProviderByDomain } from "../data/identity-providers";
import { isWithinOrganization } from "../data/organizations";
import { findUserByEmail, normalizeEmail } from "../data/users";

/**
 * The identity provider the sign-in email step sends an address to: the one whose email
 * domains include the address's domain (case-insensitive). A provider cannot take over the
 * sign-in of a person of another tenant who has that domain: for an existing user outside the
 * provider's organization tree, no provider is named (they sign in as before).
 */
export async function providerForEmail(db: Db, rawEmail: string): Promise<{ id: string; name: string } | null> {
  const email = normalizeEmail(rawEmail);
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  const provider = await findIdentityProviderByDomain(db, email.slice(at + 1));
  if (!provider) return null;
  const user = await findUserByEmail(db, email);
  if (user && !(await isWithinOrganization(db, provider.orgId, user.orgId))) return null;
  return { id: provider.id, name: provider.name };
}
