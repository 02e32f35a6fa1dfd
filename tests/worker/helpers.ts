import { env } from "cloudflare:test";
import { createApp } from "@/server/app";

export const ORIGIN = "http://config.test";

/** A request to the Worker's app with the test bindings; paths are relative to ORIGIN. */
export function request(path: string, init: RequestInit = {}, app = createApp()): Promise<Response> {
  return Promise.resolve(app.request(new Request(new URL(path, ORIGIN), init), undefined, env));
}

/** A form post as a same-origin browser sends it (the CSRF check wants the Origin). */
export function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}, app = createApp()) {
  return request(
    path,
    {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
      redirect: "manual",
    },
    app,
  );
}

/** The value of the `name=value` pair in a response's Set-Cookie headers. */
export function cookieFrom(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ""] = header.split(";");
    const index = pair.indexOf("=");
    if (pair.slice(0, index) === name) return pair.slice(index + 1);
  }
  return undefined;
}
