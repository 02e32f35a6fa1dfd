import { expect, type Page } from "@playwright/test";

/** Every demo user's password (scripts/demo-data.mjs). */
export const DEMO_PASSWORD = "radios-demo-2025";

/** Signs the page's browser context in as a demo user, through the sign-in API. */
export async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A mutation as the signed-in person (set-up a scenario needs), its data or a thrown error. */
export async function call<T>(page: Page, baseURL: string | undefined, path: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/${path}`, { data, headers: { Origin: baseURL ?? "" } });
  const body = (await response.json()) as { result?: { data: T }; error?: unknown };
  if (!body.result) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}
