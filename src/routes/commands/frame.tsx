import type { ReactNode } from "react";
import { AccountLayout } from "@/ui/shell/account-layout";
import type { PageScope } from "./scope";

/** Inside an account, the account's frame (sidebar, banner); in the inventory, the page alone. */
export function CommandsFrame({ scope, children }: { scope: PageScope; children: ReactNode }) {
  return scope.account ? <AccountLayout account={scope.account}>{children}</AccountLayout> : <div>{children}</div>;
}
