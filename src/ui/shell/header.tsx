import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server.edge";
import { type PageContext, PageContextValue, usePage } from "@/server/render/page-context";
import { buttonClass } from "../button";
import { AccountSwitcher } from "./account-switcher";
import { LanguageMenu } from "./language-menu";
import { MobileMenu } from "./mobile-menu";
import { ProfileMenu } from "./profile-menu";
import { profileMenuLinks } from "./profile-menu-items";

type HeaderProps = {
  signedIn: boolean;
  /** Extra controls a page may put in the header. */
  children?: ReactNode;
};

/**
 * The header of every page: co-branded logo, and for signed-in users the account switcher,
 * language menu, help link and profile menu, which collapse into one menu on small screens.
 */
function HeaderContent({ signedIn, children }: HeaderProps) {
  const { t, settings, currentPath, user, currentAccount } = usePage();
  const signInHref = currentPath === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(currentPath)}`;
  const member = signedIn ? user : null;
  const links = profileMenuLinks(member, currentAccount?.id ?? null);
  return (
    <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
      <a
        href={signedIn ? "/welcome" : "/"}
        // The title may shorten (…) on a narrow phone, so the header's controls always fit (issue 9 §4).
        className="flex min-w-0 items-center gap-2"
        aria-label={t("header.home", { title: settings.appTitle })}
      >
        <picture className="shrink-0">
          <source media="(min-width: 640px)" srcSet={settings.logoWideUrl} width={180} height={32} />
          <img src={settings.logoSmallUrl} alt={settings.brandName} width={32} height={32} className="h-8 w-auto" />
        </picture>
        {/* Between sm and lg the signed-in controls need the room; the wide logo still names the brand. */}
        <span className={`truncate text-base font-semibold text-slate-900 ${member ? "sm:hidden lg:inline" : ""}`}>
          {settings.appTitle}
        </span>
      </a>
      {member && (
        <div className="hidden min-w-0 sm:block">
          <AccountSwitcher />
        </div>
      )}
      <div className="ml-auto flex shrink-0 items-center gap-2">
        {children}
        <div className={member ? "hidden items-center gap-2 sm:flex" : "flex items-center gap-2"}>
          <LanguageMenu />
          {settings.helpUrl && (
            <a
              href={settings.helpUrl}
              className="rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
              rel="noopener noreferrer"
              target="_blank"
            >
              {t("header.help")}
            </a>
          )}
          {member && <ProfileMenu links={links} />}
        </div>
        {member && <MobileMenu links={links} />}
        {!signedIn && (
          <a href={signInHref} className={`${buttonClass("primary", "sm")} whitespace-nowrap`}>
            {t("header.signIn")}
          </a>
        )}
      </div>
    </div>
  );
}

const HEADER_CLASS = "relative border-b border-slate-200 bg-white print:hidden";
/** Enough for the pages a few hundred people have open at once; the oldest goes first. */
const CACHED_HEADERS = 500;
const renderedHeaders = new Map<string, string>();

/**
 * Everything the header's markup is made of: the same key, the same HTML. The user and the
 * current account go in whole, so nothing of one person's header can show in another's.
 */
function headerKey(page: PageContext, signedIn: boolean): string {
  const { language, settings, currentPath, user, currentAccount } = page;
  return JSON.stringify([signedIn, language, settings, currentPath, user, currentAccount ?? null]);
}

/**
 * The header, rendered once per isolate for each key and reused as HTML (issue 24: it is more
 * than half of the elements of the shell, which every signed-in page pays for before its data).
 * A page that puts its own controls in the header renders it afresh.
 */
export function Header({ signedIn, children }: HeaderProps) {
  const page = usePage();
  if (children) {
    return (
      <header className={HEADER_CLASS}>
        <HeaderContent signedIn={signedIn}>{children}</HeaderContent>
      </header>
    );
  }
  const key = headerKey(page, signedIn);
  let html = renderedHeaders.get(key);
  if (html === undefined) {
    html = renderToStaticMarkup(
      <PageContextValue value={page}>
        <HeaderContent signedIn={signedIn} />
      </PageContextValue>,
    );
    if (renderedHeaders.size >= CACHED_HEADERS) renderedHeaders.delete(renderedHeaders.keys().next().value ?? "");
    renderedHeaders.set(key, html);
  }
  // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of this header, escaped as any
  return <header className={HEADER_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
}
