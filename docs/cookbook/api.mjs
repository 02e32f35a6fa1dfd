// The cookbook's client for the Configuration Tool's API (/docs/api): one function per kind of
// call, no dependency beyond Node 22's fetch. CT_URL is the server (e.g. https://fleet.example.com),
// CT_TOKEN an API token (Organization settings → API tokens).
//
//   const api = connect();
//   const { items } = await api.query("devices.list", { accountId });
//   await api.mutate("devices.bulkTag", { accountId, selection: { uids }, add: ["erp"] });

/** An error answer of the API: `code` is one of spec §8 (NOT_FOUND, FORBIDDEN, CONFLICT …). */
export class ApiError extends Error {
  constructor(path, status, error) {
    super(`${path}: ${status} ${error?.data?.code ?? ""} ${error?.message ?? ""}`.trim());
    this.status = status;
    this.code = error?.data?.code ?? "UNKNOWN";
    this.fieldErrors = error?.data?.fieldErrors ?? {};
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function connect({ url = process.env.CT_URL, token = process.env.CT_TOKEN, log = () => {} } = {}) {
  if (!url || !token) throw new Error("Set CT_URL (the server) and CT_TOKEN (an API token).");
  const base = url.replace(/\/+$/, "");
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };

  // A 429 says how long to wait (Retry-After, seconds): wait that long and ask again.
  async function send(path, init, attempt = 1) {
    const response = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    if (response.status === 429 && attempt < 5) {
      const seconds = Number(response.headers.get("Retry-After")) || 1;
      log(`rate limited: waiting ${seconds} s`);
      await sleep(seconds * 1000);
      return send(path, init, attempt + 1);
    }
    return response;
  }

  async function answer(path, response) {
    const body = await response.json().catch(() => null);
    if (!response.ok || !body || "error" in body) throw new ApiError(path, response.status, body?.error);
    return body.result.data;
  }

  return {
    /** A procedure that reads: GET /api/<path>?input=<JSON>. */
    async query(path, input = {}) {
      const search = new URLSearchParams({ input: JSON.stringify(input) });
      return answer(path, await send(`/api/${path}?${search}`, { method: "GET" }));
    },
    /** A procedure that changes something: POST /api/<path> with a JSON body. */
    async mutate(path, input = {}) {
      const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input) };
      return answer(path, await send(`/api/${path}`, init));
    },
    /** A file the API offers for download (a CSV), as text. */
    async download(path) {
      const response = await send(path, { method: "GET", headers: { Accept: "text/csv" } });
      if (!response.ok) throw new ApiError(path, response.status, { message: await response.text() });
      return response.text();
    },
  };
}

/** `--name value` options of a script, with defaults. */
export function options(defaults) {
  const args = process.argv.slice(2);
  const found = { ...defaults };
  for (let i = 0; i < args.length; i++) {
    const name = args[i]?.startsWith("--") ? args[i].slice(2) : null;
    if (!name || !(name in defaults))
      throw new Error(
        `unknown argument ${args[i]}; takes ${Object.keys(defaults)
          .map((n) => `--${n}`)
          .join(" ")}`,
      );
    found[name] = typeof defaults[name] === "boolean" ? true : args[++i];
  }
  return found;
}
