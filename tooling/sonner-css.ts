import type { Plugin } from "vite";

/**
 * Sonner's ES build injects its whole stylesheet (~3 KB gzip) from JavaScript: one call of a
 * small `<style>` helper with the CSS as a template literal, run when the module loads. The
 * same CSS ships as `sonner/dist/styles.css`, which the toaster imports as a real stylesheet
 * (the shell links it while the toaster chunk loads). This drops the injecting call, so the
 * browser is not sent the CSS twice, once of it inside JavaScript (issue 10 §2).
 * The build fails if the call is not found: a sonner upgrade must be looked at, not guessed.
 */
export function sonnerWithoutInjectedCss(): Plugin {
  // `helper(`…[data-sonner-toaster]…`);` — the only template literal holding sonner's selectors.
  const injected = /\b[A-Za-z_$][\w$]*\(`[^`]*\[data-sonner-toaster\][^`]*`\);?/;
  return {
    name: "sonner-without-injected-css",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.mjs$/.test(id.split("?")[0] ?? "")) return;
      if (!injected.test(code)) this.error("sonner's injected stylesheet was not found: check tooling/sonner-css.ts");
      return { code: code.replace(injected, ""), map: null };
    },
  };
}
