import { describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import { AppError } from "@/server/errors";
import { createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

function appThatThrows(error: unknown) {
  const app = createApp();
  app.get("/boom", () => {
    throw error;
  });
  return app;
}

describe("route error screen", () => {
  it("says the route is protected on FORBIDDEN, with status 403", async () => {
    const response = await request("/boom", {}, appThatThrows(new AppError("FORBIDDEN")));
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain("This route is protected.");
    expect(html).not.toContain("Code:");
  });

  it("shows the message and code of other expected errors", async () => {
    const response = await request("/boom", {}, appThatThrows(new AppError("CONFLICT", "Someone else changed this site.")));
    expect(response.status).toBe(409);
    const html = await response.text();
    expect(html).toContain("Sorry, this isn&#x27;t supposed to happen!");
    expect(html).toContain("Someone else changed this site.");
    expect(html).toContain("Code: CONFLICT");
  });

  it("hides the details and the stack of an unexpected error outside development", async () => {
    const response = await request("/boom", {}, appThatThrows(new Error("database password is hunter2")));
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("Code: INTERNAL_SERVER_ERROR");
    expect(html).not.toContain("hunter2");
    expect(html).not.toContain("<pre");
  });

  it("maps a procedure's error to its code and status", async () => {
    const { TRPCError } = await import("@trpc/server");
    const response = await request(
      "/boom",
      {},
      appThatThrows(new TRPCError({ code: "NOT_FOUND", message: "We can't find that account." })),
    );
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Code: NOT_FOUND");
    expect(html).toContain("We can&#x27;t find that account.");
  });

  it("never shows a validator's raw JSON: a translated sentence instead (a page without its ?id=)", async () => {
    const owner = await createUser({ role: "owner" });
    const cookie = await sessionCookie(owner.email);
    for (const [language, sentence] of [
      ["en", "Part of this address or form is missing or not valid."],
      ["pt-BR", "Parte deste endereço ou formulário está faltando ou não é válida."],
    ] as const) {
      const response = await request("/settings/subscriptions/remove", { headers: { Cookie: `${cookie}; lang=${language}` } });
      expect(response.status).toBe(400);
      const html = (await response.text()).replaceAll("&#x27;", "'");
      expect(html).toContain(sentence);
      expect(html).not.toContain('"code"');
      expect(html).not.toContain("too_small");
      expect(html).not.toContain("expected string");
    }
  });

  it("speaks the visitor's language", async () => {
    const response = await request("/boom", { headers: { Cookie: "lang=fr-CA" } }, appThatThrows(new AppError("FORBIDDEN")));
    expect(await response.text()).toContain("Cette page est protégée.");
  });
});
