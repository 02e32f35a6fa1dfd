import { ORIGIN, request } from "./helpers";

/** A typed procedure's answer on the wire (tRPC's HTTP protocol, spec §7). */
export type Answer<T = unknown> = { result?: { data: T }; error?: { data: { code: string } } };

/** Calls a procedure as the screens do: a query is GET with `?input=`, a mutation a same-origin JSON POST. */
export async function call<T = unknown>(
  path: string,
  input: unknown,
  cookie: string,
  method: "GET" | "POST",
): Promise<Answer<T>> {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return response.json();
}

/** The answer's data; a refusal fails the test with its error. */
export function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}
