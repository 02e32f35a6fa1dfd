import { usePage } from "@/server/render/page-context";
import { buttonClass } from "@/ui/button";
import { PlainScript } from "@/ui/plain-script";

/**
 * "Load more" under the activity log: a link to the next page (the cursor in the URL), which
 * is all it is without JavaScript. The page links a plain script (src/enhance/more-entries.ts,
 * no React) that makes it a button adding the next page's entries in place, rendered by the
 * server as that link's page. The texts it needs ride along as data attributes.
 */
export function MoreEntries({ href, shown }: { href: string; shown: number }) {
  const { t, assets } = usePage();
  return (
    <>
      <p
        className="mt-4"
        data-more-entries=""
        data-shown={shown}
        data-shown-text={String(t("activityLogs.shown"))}
        data-loading-text={String(t("activityLogs.loading"))}
        data-end-text={String(t("activityLogs.end"))}
      >
        <a href={href} className={buttonClass("white")}>
          {t("activityLogs.loadMore")}
        </a>
      </p>
      <PlainScript script={assets.plainScripts.moreEntries} />
    </>
  );
}
