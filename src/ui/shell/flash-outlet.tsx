import { Island } from "@/islands/runtime/island";
import { usePage } from "@/server/render/page-context";
import { StatusMessage } from "../status-message";

/**
 * Shows the flash of a redirected form post: as a toast when JavaScript runs, and as a plain
 * status message inside <noscript> when it does not.
 */
export function FlashOutlet({ toaster }: { toaster: boolean }) {
  const { t, flash } = usePage();
  const text = flash ? String(t(flash.key, flash.values ?? {})) : null;
  if (!toaster && !flash) return null;
  return (
    <>
      {flash && text && (
        <noscript>
          <div className="mx-auto max-w-7xl px-4 pt-4">
            <StatusMessage tone={flash.type}>{text}</StatusMessage>
          </div>
        </noscript>
      )}
      <Island name="toaster" props={{ initial: flash && text ? { type: flash.type, text } : null }} />
    </>
  );
}
