import { renderToString } from "react-dom/server.edge";
import { describe, expect, it } from "vitest";
import { islands } from "@/islands/registry";
import { Island } from "@/islands/runtime/island";
import { translate } from "@/islands/runtime/messages";
import { IslandPropsError, parseProps, serializeProps } from "@/islands/runtime/props";
import { translatorFor } from "@/server/i18n/i18n";
import { assetTags } from "@/server/render/assets";
import { IslandCollector, type PageContext, PageContextValue } from "@/server/render/page-context";
import { defaultSettings } from "@/server/settings";
import { IslandBootstrap } from "@/ui/shell/island-bootstrap";
import { cookieFrom, postForm, request } from "./helpers";

const islandFiles = import.meta.glob("../../src/islands/*.island.tsx");

function pageContext(): PageContext {
  return {
    t: translatorFor("es-MX", defaultSettings.brandNamespace),
    language: "es-MX",
    settings: defaultSettings,
    currentPath: "/",
    nonce: "test-nonce",
    assets: assetTags,
    styles: "",
    flash: null,
    user: null,
    islands: new IslandCollector(),
    development: false,
  };
}

function render(node: React.ReactNode, page = pageContext()) {
  return renderToString(<PageContextValue value={page}>{node}</PageContextValue>);
}

/** The marker's data-props, unescaped as a browser would read the attribute. */
function markerProps(html: string): Record<string, unknown> {
  const raw = /data-props="([^"]*)"/.exec(html)?.[1] ?? "";
  const unescaped = raw.replace(
    /&(quot|amp|lt|gt|#x27);/g,
    (_, e: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", "#x27": "'" })[e] ?? "",
  );
  return parseProps(unescaped);
}

describe("island marker", () => {
  it("names the island, gives it a page-unique prefix and carries its props and strings", () => {
    const page = pageContext();
    const html = render(
      <>
        <Island name="confirm-form" props={{ action: "/a", label: "x" }} />
        <Island name="confirm-form" props={{ action: "/b", label: "y" }} />
      </>,
      page,
    );
    expect(html).toContain('data-island="confirm-form" data-island-id="i1-"');
    expect(html).toContain('data-island-id="i2-"');
    expect([...page.islands.names]).toEqual(["confirm-form"]);
    // The strings the island declared, in the page's language, and nothing else.
    expect(markerProps(html)).toEqual({
      action: "/a",
      label: "x",
      messages: { "identityForm.networkError": String(page.t("identityForm.networkError")) },
    });
  });

  it("keeps props containing </script> or <!-- inside the attribute", () => {
    const hostile = `</script><script>alert(1)</script><!-- "quoted" & 'single' -->`;
    const html = render(<Island name="confirm-form" props={{ action: "/a", label: hostile }} />);
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<!-- ");
    expect(markerProps(html)).toMatchObject({ label: hostile });
  });

  it("refuses props that are not plain JSON", () => {
    expect(() => serializeProps("x", { when: new Date() })).toThrow(IslandPropsError);
    expect(() => serializeProps("x", { n: Number.NaN })).toThrow(IslandPropsError);
    expect(() => serializeProps("x", { f: () => 1 })).toThrow(IslandPropsError);
    expect(serializeProps("x", { a: [1, "b", null, { c: true }], skipped: undefined })).toBe('{"a":[1,"b",null,{"c":true}]}');
  });

  it("adds the shell script to every page and the island bootstrap, with the nonce, only when the page has islands", () => {
    const plain = render(<IslandBootstrap />);
    expect(plain).toBe(`<script type="module" src="${assetTags.shellScript}" nonce="test-nonce"></script>`);
    const html = render(
      <>
        <Island name="confirm-form" props={{ action: "/a", label: "x" }} />
        <IslandBootstrap />
      </>,
    );
    expect(html).toContain(`<script type="module" src="${assetTags.entryScript}" nonce="test-nonce"></script>`);
  });

  it("has a browser module for every island the server knows, named after it", () => {
    const files = Object.keys(islandFiles).map((path) => path.replace(/^.*\/(.+)\.island\.tsx$/, "$1"));
    expect(files.sort()).toEqual(Object.keys(islands).sort());
  });

  it("translates with placeholders in the browser without i18next", () => {
    expect(translate({ hi: "Hola {{name}}, {{name}}!" }, "hi", { name: "Ana" })).toBe("Hola Ana, Ana!");
    expect(translate({}, "missing.key")).toBe("missing.key");
  });
});

describe("flash", () => {
  it("shows a posted form's outcome once, as a status that stays on the page (the shell script toasts it too)", async () => {
    const post = await postForm("/language", { language: "pt-BR", next: "/" });
    const cookies = `lang=${cookieFrom(post, "lang")}; flash=${cookieFrom(post, "flash")}`;
    const page = await request("/", { headers: { Cookie: cookies } });
    const html = await page.text();
    expect(html).toMatch(/data-flash="success"><div role="status"[^>]*>O idioma agora é português\.<\/div>/);
    expect(html).not.toContain("<noscript>");
    expect(html).not.toContain("data-island=");
    // Read once: the response clears the cookie.
    expect(page.headers.getSetCookie().some((c) => c.startsWith("flash=;"))).toBe(true);
  });

  it("ignores a forged or broken flash cookie", async () => {
    const html = await (await request("/", { headers: { Cookie: "flash=%7Bnot-json" } })).text();
    expect(html).not.toContain("data-flash");
    expect(html).not.toContain("data-island=");
  });
});
