import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { IMPORT_BODY_MAX_BYTES, IMPORT_MAX_BYTES } from "@/schema/devices";
import { createApp } from "@/server/app";
import type { D1Database } from "@/server/cloudflare";
import { type Counted, counting } from "./d1-counting";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// The CSV import at the size it promises (issue 23): 3 MB and 10,000 rows on the form (a file
// upload, as a browser without JavaScript sends it) and on the API; every refusal is the
// import screen with the file's text kept; problems name the file's lines.

let org: string;
let owner: string;
let fleet: string;

beforeAll(async () => {
  org = await createOrganization("Import dealer");
  fleet = await createAccount(org, "Import fleet");
  owner = await sessionCookie((await createUser({ orgId: org, role: "owner" })).email);
});

/** `count` ordinary rows (about 90 bytes each, as a fleet's export has them). */
function rows(prefix: string, count: number, from = 1): string[] {
  return Array.from(
    { length: count },
    (_, i) => `${prefix}-${String(from + i).padStart(5, "0")},Northwind,XR-7,Bus ${from + i} front radio,depot;night,,,`,
  );
}

const HEADER = "uid,brand,model,name,tags,account,site,location";

/** The import form as a browser posts it: multipart, the file in its file field. */
function upload(path: string, file: string | Blob, fields: Record<string, string> = {}, bindings: object = env) {
  const form = new FormData();
  form.set("file", file instanceof Blob ? file : new File([file], "radios.csv", { type: "text/csv" }));
  form.set("csv", "");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return createApp().request(
    new Request(new URL(path, ORIGIN), { method: "POST", body: form, headers: { Origin: ORIGIN, Cookie: owner } }),
    undefined,
    bindings,
  );
}

const textOf = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The text of the import screen's box (what the person sent, kept). */
function keptText(html: string): string {
  return textOf(html.match(/<textarea[^>]*id="import-csv"[^>]*>([\s\S]*?)<\/textarea>/)?.[1] ?? "");
}

/** The problems table's rows: [line, column, message]. */
function problems(html: string): string[][] {
  const body = html.match(/<tbody>([\s\S]*?)<\/tbody>/)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1] ?? "")),
  );
}

async function count(sql: string): Promise<number> {
  return (await env.DB.prepare(sql).first<{ n: number }>())?.n ?? -1;
}

describe("10,000 radios in one file", () => {
  it("imports on the form in one batch within D1's limits, and prints the time and statements", async () => {
    const csv = [HEADER, ...rows("BIG", 10_000)].join("\r\n");
    const bytes = new TextEncoder().encode(csv).byteLength;
    expect(bytes).toBeGreaterThan(256 * 1024);

    const dryStarted = performance.now();
    const dry = await upload("/devices/import", csv);
    expect(dry.status).toBe(200);
    expect(await dry.text()).toContain("10000 radios would be registered");
    const dryElapsed = performance.now() - dryStarted;

    const counted: Counted = { calls: 0, statements: [] };
    const started = performance.now();
    const done = await upload("/devices/import", csv, { commit: "1" }, { ...env, DB: counting(env.DB as D1Database, counted) });
    const html = await done.text();
    const elapsed = performance.now() - started;
    expect(done.status).toBe(200);
    expect(html).toContain("Imported: 10000 registered, 0 updated");
    expect(await count("SELECT count(*) AS n FROM devices WHERE uid LIKE 'BIG-%'")).toBe(10_000);
    expect(await count("SELECT count(*) AS n FROM device_tags WHERE uid LIKE 'BIG-%'")).toBe(20_000);

    // The import's batch is the largest (the others are the session's and the page's reads).
    const inBatch = Math.max(...counted.statements.filter((s) => s.startsWith("batch of ")).map((s) => Number(s.slice(9))));
    // One batch: all or nothing, a few dozen statements each binding at most a few parameters.
    expect(inBatch).toBeLessThanOrEqual(60);
    console.log(
      `import of 10,000 rows (${(bytes / 1024).toFixed(0)} KiB): dry run ${dryElapsed.toFixed(0)} ms; ` +
        `import ${elapsed.toFixed(0)} ms, ${counted.calls} D1 calls, the rows in one batch of ${inBatch} statements`,
    );
  }, 120_000);

  it("imports through the API too (a JSON body over the 512 KB of other procedures)", async () => {
    const csv = [HEADER, ...rows("API", 10_000)].join("\n");
    const answer = await request("/api/devices.importCsv", {
      method: "POST",
      body: JSON.stringify({ csv, dryRun: false }),
      headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { result: { data: { imported: boolean; creates: number } } };
    expect(body.result.data).toMatchObject({ imported: true, creates: 10_000 });
  }, 120_000);

  it("a bad row on line 5,000 is reported as line 5,000, and the file is kept", async () => {
    const lines = [HEADER, ...rows("LINE", 9_999)];
    lines[4_999] = "bad uid!,Northwind,XR-7,Broken,,,,";
    const csv = lines.join("\n");
    const answer = await upload("/devices/import", csv);
    expect(answer.status).toBe(422);
    const html = await answer.text();
    expect(problems(html)).toEqual([["5000", "uid", expect.stringContaining("1 to 64 letters")]]);
    expect(keptText(html)).toBe(csv);
    expect(await count("SELECT count(*) AS n FROM devices WHERE uid LIKE 'LINE-%'")).toBe(0);
  }, 60_000);
});

describe("refusals are the import screen, with the file kept", () => {
  it("3 MB + 1 byte: the translated message, the text in the box, nothing imported", async () => {
    const head = [HEADER, ...rows("FAT", 20)].join("\n");
    const filler = `\n${"x".repeat(IMPORT_MAX_BYTES - new TextEncoder().encode(head).byteLength)}`;
    const csv = `${head}${filler}`;
    expect(new TextEncoder().encode(csv).byteLength).toBe(IMPORT_MAX_BYTES + 1);
    const answer = await upload("/devices/import", csv);
    expect(answer.status).toBe(422);
    const html = await answer.text();
    expect(problems(html)).toEqual([["—", "file", "The file is too large (at most 3 MB)."]]);
    expect(keptText(html)).toBe(csv);
    expect(html).not.toContain("data-error-screen");

    const spanish = await createApp().request(
      new Request(new URL("/devices/import", ORIGIN), {
        method: "POST",
        body: (() => {
          const form = new FormData();
          form.set("file", new File([csv], "radios.csv"));
          return form;
        })(),
        headers: { Origin: ORIGIN, Cookie: owner, "Accept-Language": "es-MX" },
      }),
      undefined,
      env,
    );
    expect(problems(await spanish.text())[0]?.[2]).toBe("El archivo es demasiado grande (máximo 3 MB).");
    expect(await count("SELECT count(*) AS n FROM devices WHERE uid LIKE 'FAT-%'")).toBe(0);
  }, 60_000);

  it("exactly 3 MB is read (and refused only for what is in it)", async () => {
    const head = [HEADER, ...rows("EDGE", 5)].join("\n");
    const csv = `${head}\n${"y".repeat(IMPORT_MAX_BYTES - new TextEncoder().encode(head).byteLength - 1)}`;
    expect(new TextEncoder().encode(csv).byteLength).toBe(IMPORT_MAX_BYTES);
    const html = await (await upload("/devices/import", csv)).text();
    expect(problems(html)).toEqual([["7", "file", expect.stringContaining("the first line has 8")]]);
  }, 60_000);

  it("a body past what is read at all is still the import screen (413), not the error page", async () => {
    const answer = await upload("/devices/import", new File([new Uint8Array(IMPORT_BODY_MAX_BYTES + 1).fill(65)], "big.csv"));
    expect(answer.status).toBe(413);
    const html = await answer.text();
    expect(problems(html)).toEqual([["—", "file", "The file is too large (at most 3 MB)."]]);
    expect(html).toContain('id="import-csv"');
  }, 60_000);

  it("10,001 rows, seats, and an unreadable file: the import screen, the text kept", async () => {
    const long = [HEADER, ...rows("LONG", 10_001)].join("\n");
    const tooLong = await (await upload("/devices/import", long)).text();
    expect(problems(tooLong)).toEqual([["—", "file", "At most 10000 rows per import. Split the file."]]);
    expect(keptText(tooLong)).toBe(long);

    const seats = [HEADER, `SEAT-1,Northwind,XR-7,,,${fleet},,`].join("\n");
    const noSeats = await upload(`/accounts/${fleet}/registry/devices/import`, seats, { commit: "1" });
    expect(noSeats.status).toBe(422);
    const seatsHtml = await noSeats.text();
    expect(problems(seatsHtml)).toEqual([["2", "account", expect.stringContaining("only 0 free seats")]]);
    expect(keptText(seatsHtml)).toBe(seats);

    const broken = `${HEADER}\nOK-1,Northwind,XR-7,,,,,\n"unterminated,Northwind`;
    const unreadable = await (await upload("/devices/import", broken)).text();
    expect(problems(unreadable)).toEqual([["3", "file", expect.stringContaining("can't be read as CSV")]]);
    expect(keptText(unreadable)).toBe(broken);
  }, 60_000);

  it("refuses 3 MB + 1 byte on the API with the same words", async () => {
    const csv = `${HEADER}\n${"z".repeat(IMPORT_MAX_BYTES - HEADER.length)}`;
    const answer = await request("/api/devices.importCsv", {
      method: "POST",
      body: JSON.stringify({ csv, dryRun: true }),
      headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "application/json" },
    });
    const body = (await answer.json()) as { result: { data: { ok: boolean; problems: { message: string }[] } } };
    expect(body.result.data.ok).toBe(false);
    expect(body.result.data.problems).toEqual([{ row: 0, column: "file", message: "The file is too large (at most 3 MB)." }]);
    const past = await request("/api/devices.importCsv", {
      method: "POST",
      body: JSON.stringify({ csv: "x".repeat(IMPORT_BODY_MAX_BYTES) }),
      headers: { Origin: ORIGIN, Cookie: owner, "Content-Type": "application/json" },
    });
    expect(past.status).toBe(413);
    expect(((await past.json()) as { error: { message: string } }).error.message).toBe("The file is too large (at most 3 MB).");
  }, 60_000);
});

describe("lines are the file's", () => {
  it("counts blank lines, Windows line ends and cells over several lines; a line of the wrong width is named", async () => {
    const csv = [
      HEADER, // 1
      "", // 2
      "L-1,Northwind,XR-7,One,,,,", // 3
      'L-2,Northwind,XR-7,"Two', // 4
      'lines",,,,', // 5
      ",,,,,,,", // 6: a spreadsheet's empty row, skipped
      "L-3,Northwind,,Three,,,,", // 7: no model
      "L-4,Northwind,XR-7", // 8: too few fields
      "L-1,Northwind,XR-7,Again,,,,", // 9: repeated
    ].join("\r\n");
    const html = await (await upload("/devices/import", csv)).text();
    expect(problems(html).map(([line, column]) => [line, column])).toEqual([
      ["7", "model"],
      ["8", "file"],
      ["9", "uid"],
    ]);
    expect(problems(html)[1]?.[2]).toBe("This line has 3 fields; the first line has 8.");
    expect(problems(html)[2]?.[2]).toBe("This uid is already on line 3 of the file.");
  });

  it("reads back a cell the export protected from spreadsheets (a uid starting with -)", async () => {
    const csv = `${HEADER}\n'-2-3,Northwind,XR-7,'=Formula name,,,,\n`;
    const answer = await upload("/devices/import", csv, { commit: "1" });
    expect(await answer.text()).toContain("Imported: 1 registered");
    const device = await env.DB.prepare("SELECT uid, name FROM devices WHERE uid = '-2-3'").first<{ name: string }>();
    expect(device).toEqual({ uid: "-2-3", name: "=Formula name" });
  });
});
