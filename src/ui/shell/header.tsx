import type { ReactNode } from "react";
import { Island } from "../../islands/runtime/island";
import { usePage } from "../../server/render/page-context";
import { buttonClass } from "../button";
import { LanguageMenu } from "./language-menu";

type HeaderProps = {
  signedIn: boolean;
  /** The signed-in controls (account switcher, profile menu) that later layers put here. */
  children?: ReactNode;
};

/** The header of every page: co-branded logo, language menu, help link, sign-in or account controls. */
export function Header({ signedIn, children }: HeaderProps) {
  const { t, settings, currentPath, user } = usePage();
  const signInHref = currentPath === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(currentPath)}`;
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2">
        <a
          href={signedIn ? "/welcome" : "/"}
          className="flex items-center gap-2"
          aria-label={t("header.home", { title: settings.appTitle })}
        >
          <picture>
            <source media="(min-width: 640px)" srcSet={settings.logoWideUrl} width={180} height={32} />
            <img src={settings.logoSmallUrl} alt={settings.brandName} width={32} height={32} className="h-8 w-auto" />
          </picture>
          <span className="text-base font-semibold text-slate-900">{settings.appTitle}</span>
        </a>
        <div className="ml-auto flex items-center gap-2">
          {children}
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
          {signedIn && user && (
            <div className="flex items-center gap-2">
              <p className="hidden max-w-48 text-right text-sm leading-tight sm:block">
                <span className="sr-only">{t("header.signedInAs")} </span>
                <span className="block truncate font-medium text-slate-900">{user.name || user.email}</span>
                {user.name && <span className="block truncate text-xs text-slate-600">{user.email}</span>}
              </p>
              <Island name="sign-out" props={{}} />
            </div>
          )}
          {!signedIn && (
            <a href={signInHref} className={buttonClass("primary", "sm")}>
              {t("header.signIn")}
            </a>
          )}
        </div>
      </div>
    </header>
  );
}
