import type { ReactNode } from "react";
import { usePage } from "@/server/render/page-context";
import { FlashOutlet } from "./flash-outlet";
import { Footer } from "./footer";
import { Header } from "./header";
import { IdleWarning } from "./idle-warning";
import { IslandBootstrap } from "./island-bootstrap";

type DocumentProps = {
  /** The route's title, already translated. */
  title: string;
  signedIn: boolean;
  headerControls?: ReactNode;
  children: ReactNode;
};

/** The whole HTML document around a page: one response holds everything needed for first paint. */
export function Document({ title, signedIn, headerControls, children }: DocumentProps) {
  const { language, settings, assets, styles, t, nonce } = usePage();
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${settings.appTitle}`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's CSS for this page, inlined so first paint waits for nothing else */}
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: styles }} />
        {/* First paint waits until the page's content is parsed, not just the header: one layout and one paint instead of two (slow phones paint the header, then lay out again). */}
        <link rel="expect" href="#main" blocking="render" />
      </head>
      <body
        className="flex min-h-screen flex-col"
        data-updating-text={t("app.checkingForUpdates")}
        data-toast-label={t("toast.notifications")}
        data-toaster-src={assets.shellModules.toaster}
        data-toaster-styles={assets.toasterStyles ?? undefined}
        data-islands-src={assets.entryScript}
        data-switcher-panel-src={assets.shellModules.switcherPanel}
        data-webauthn-src={assets.shellModules.webAuthn}
      >
        <a href="#main" className="skip-link">
          {t("app.skipToContent")}
        </a>
        <Header signedIn={signedIn}>{headerControls}</Header>
        <FlashOutlet />
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 print:max-w-none print:p-0">
          {children}
        </main>
        <Footer />
        {/* Spec §4: signed out after 15 idle minutes, warned 2 minutes before (WCAG 2.2.1). */}
        {signedIn && <IdleWarning />}
        <IslandBootstrap />
      </body>
    </html>
  );
}
