import { createContext, useContext } from "react";
import type { Language } from "@/schema/languages";
import type { SessionUser } from "../auth/sessions";
import type { CurrentAccount } from "../current-account";
import type { Translate } from "../i18n/i18n";
import type { Settings } from "../settings";
import type { AssetTags } from "./assets";
import type { Flash } from "./flash";

/** What every server-rendered component may read about the request it renders for. */
export type PageContext = {
  t: Translate;
  language: Language;
  settings: Settings;
  /** The path and query of this request, for links that come back here (language menu, sign-in). */
  currentPath: string;
  nonce: string;
  assets: AssetTags;
  /** The page's CSS, inlined in <head> so first paint needs no second request (src/server/render/page-styles.ts). */
  styles: string;
  flash: Flash | null;
  /** Who is signed in (header, greeting), or null. */
  user: SessionUser | null;
  /** The account the page is inside (/accounts/{id}/…), for the header's switcher and profile menu. */
  currentAccount?: CurrentAccount | null;
  /** How many changes of an account wait to be deployed, asked once per request (the account layout's banner). */
  pendingChanges?: (accountId: string) => Promise<number>;
  /** The islands rendered so far on this page; the bootstrap script is added only if any. */
  islands: IslandCollector;
  /** Show stacks on the error screen (vite dev only). */
  development: boolean;
};

export class IslandCollector {
  readonly names = new Set<string>();
  private count = 0;
  /** A page-unique id, used as the island's React identifierPrefix on both sides. */
  add(name: string): string {
    this.names.add(name);
    this.count += 1;
    return `i${this.count}-`;
  }
}

export const PageContextValue = createContext<PageContext | null>(null);

export function usePage(): PageContext {
  const value = useContext(PageContextValue);
  if (!value) throw new Error("usePage() outside a server-rendered page");
  return value;
}
