import { usePage } from "@/server/render/page-context";
import { StatusMessage } from "../status-message";

/**
 * The flash of a redirected form post, as a status message that stays on the page until the
 * next navigation (issue 9 §4: confirmations must not vanish). With JavaScript the shell
 * script also shows it as a toast (it reads `data-flash`).
 */
export function FlashOutlet() {
  const { t, flash } = usePage();
  const text = flash ? String(t(flash.key, flash.values ?? {})) : null;
  if (!flash || !text) return null;
  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-4" data-flash={flash.type}>
      <StatusMessage tone={flash.type}>{text}</StatusMessage>
    </div>
  );
}
