import { describe, expect, it } from "vitest";
import { request } from "./helpers";

const publicRoutes = [
  "/",
  "/sign-in",
  "/accept/abc123",
  "/forgot-password",
  "/confirm-reset-code-sent",
  "/reset-password/xyz789",
  "/confirm-password-reset",
  "/simulator",
  "/docs/api",
  "/docs/api/devices",
];

describe("pages", () => {
  it("renders the public home page with the shell, a sign-in button, inlined CSS and only the shell's script", async () => {
    const response = await request("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(html).toContain("<title>Home · Configuration Tool</title>");
    expect(html).toContain('href="/sign-in"');
    expect(html).toContain("© 2025 Northwind Radio");
    expect(html).toContain('href="https://www.northwind-radio.example/privacy"');
    expect(html).toContain('href="https://www.northwind-radio.example/terms-of-use"');
    // One round trip to first paint: the CSS is in the page, no stylesheet to fetch.
    expect(html).toMatch(/<head>.*<style nonce="[^"]+">.*<\/style><\/head>/s);
    expect(html).not.toContain('rel="stylesheet"');
    // No React: only the shell's small script (menus close on Escape), loaded as a module after the content.
    expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<script type="module" src="\/src\/shell\/shell.ts" nonce="[^"]+">$/),
    ]);
    // No help link unless a help URL is configured.
    expect(html).not.toContain(">Help<");
  });

  it.each(publicRoutes)("serves the public route %s", async (path) => {
    const response = await request(path);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<main");
  });

  it("answers an unknown path with the catch-all page and 404", async () => {
    const response = await request("/no/such/page");
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("We can&#x27;t find what you&#x27;re looking for.");
  });

  it("sends the security headers with a fresh nonce on every page", async () => {
    const [first, second] = await Promise.all([request("/"), request("/")]);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(csp).not.toBe(second.headers.get("content-security-policy"));
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("strict-transport-security")).toContain("max-age=");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("shows the help link only when a help URL is configured", async () => {
    const { env } = await import("cloudflare:test");
    const { createApp } = await import("@/server/app");
    const response = await createApp().request("/", undefined, { ...env, HELP_URL: "https://help.example/docs" });
    expect(await response.text()).toContain('href="https://help.example/docs"');
  });

  it("rebrands from wrangler vars without code changes", async () => {
    const { env } = await import("cloudflare:test");
    const { createApp } = await import("@/server/app");
    const response = await createApp().request("/", undefined, {
      ...env,
      APP_TITLE: "Fleet Console",
      BRAND_NAME: "Acme Comms",
      PRIVACY_URL: "https://acme.example/privacy",
    });
    const html = await response.text();
    expect(html).toContain("<title>Home · Fleet Console</title>");
    expect(html).toContain("© 2025 Acme Comms");
    expect(html).toContain('href="https://acme.example/privacy"');
  });
});
