import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { Toaster, toast } from "sonner";
import type { ToastType } from "@/islands/runtime/shell-events";
// A real stylesheet, linked by the shell beside this chunk (sonner's own injection is dropped: tooling/sonner-css.ts).
import "sonner/dist/styles.css";

/**
 * Sonner 1.7's defaults are the spec's (§9): 4000 ms, 3 visible, 356 px wide, 14 px gap,
 * dismissed by a 20 px swipe or a speed above 0.11, 200 ms removal, Alt+T.
 * Ready once mounted: sonner drops toasts sent before its Toaster subscribed.
 */
function Host({ label, onReady }: { label: string; onReady: () => void }) {
  // A parent's effect runs after its children's, so sonner has subscribed by now.
  useEffect(onReady, [onReady]);
  return <Toaster position="bottom-right" theme="light" hotkey={["altKey", "KeyT"]} containerAriaLabel={label} />;
}

/** Mounts the page's one toaster in its own root and resolves with a way to show toasts. */
export function mountToaster(label: string): Promise<(type: ToastType, text: string) => void> {
  return new Promise((resolve) => {
    const host = document.createElement("div");
    document.body.append(host);
    createRoot(host).render(<Host label={label} onReady={() => resolve((type, text) => toast[type](text))} />);
  });
}
