import { env } from "cloudflare:test";
import { createApp } from "@/server/app";
import { encodeCursor } from "@/server/data/keyset";
import { ORIGIN } from "../../tests/worker/helpers";

/*
 * What the scale benchmarks share: the median time of a whole request through the Worker's
 * app in workerd (session lookup, procedures, D1, server rendering), one request at a time,
 * and the cursor a list's "Next" link would carry.
 */

const app = createApp();

/** The median time (ms) of `runs` GETs of `path` as the holder of `cookie`, after two warm-ups. */
export async function timeOf(path: string, cookie: string, runs: number): Promise<number> {
  const once = async () => {
    const response = await app.request(new Request(new URL(path, ORIGIN), { headers: { Cookie: cookie } }), undefined, env);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.text();
  };
  await once();
  await once();
  const times: number[] = [];
  for (let n = 0; n < runs; n += 1) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** The cursor of the row `sql` selects (a keyset of two values), as a list's "Next" link carries it. */
export async function cursorAt(sql: string, ...params: (string | number)[]): Promise<string> {
  const [first] = await env.DB.prepare(sql)
    .bind(...params)
    .raw<[string | number, string | number]>();
  if (!first) throw new Error(`no row for ${sql}`);
  return encodeURIComponent(encodeCursor(first));
}
