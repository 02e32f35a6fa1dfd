import type { ReactNode } from "react";
import { Island } from "@/islands/runtime/island";
import { usePage } from "@/server/render/page-context";
import { FlashOutlet } from "./flash-outlet";
import { Footer } from "./footer";
import { Header } from "./header";
import { IslandBootstrap } from "./island-bootstrap";

type DocumentProps = {
  /** The route's title, already translated. */
  title: string;
  signedIn: boolean;
  headerControls?: ReactNode;
  /** Forms and other islands that may toast need the toaster even without a flash. */
  toaster?: boolean;
  children: ReactNode;
};

/** The whole HTML document around a page. */
export function Document({ title, signedIn, headerControls, toaster = false, children }: DocumentProps) {
  const { language, settings, assets, t } = usePage();
  return (
    <html lang={language}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · ${settings.appTitle}`}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.stylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body className="flex min-h-screen flex-col">
        <a href="#main" className="skip-link">
          {t("app.skipToContent")}
        </a>
        <Header signedIn={signedIn}>{headerControls}</Header>
        <FlashOutlet toaster={toaster} />
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
          {children}
        </main>
        <Footer />
        {/* Signs out after 15 idle minutes (spec §4); before the bootstrap, which lists the islands. */}
        {signedIn && <Island name="idle-timer" props={{}} />}
        <IslandBootstrap />
      </body>
    </html>
  );
}
