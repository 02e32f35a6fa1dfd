import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { PART_BYTES } from "@/server/firmware/uploads";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// The firmware screens without JavaScript (issue 26): the upload form posts the file whole and the
// server puts it into R2 in parts, hashes and signs it (post/redirect/get); refusals on their
// fields; the package page shows what a firmware team checks; a vendor's package is read-only in
// its customer's account; delete asks first; the list is reachable from the inventory.

let vendorOrg = "";
let owner = "";
let customerOwner = "";
let customerAccount = "";
const html = async (path: string, cookie = owner) => (await request(path, { headers: { Cookie: cookie } })).text();

function uploadForm(fields: Record<string, string | string[]>, file: Uint8Array<ArrayBuffer> | null) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  form.append("file", file ? new File([file], "radio.bin", { type: "application/octet-stream" }) : new File([], ""));
  return form;
}

function post(path: string, form: FormData, cookie = owner, headers: Record<string, string> = {}) {
  return request(path, {
    method: "POST",
    body: form,
    headers: { Origin: ORIGIN, Cookie: cookie, ...headers },
    redirect: "manual",
  });
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

beforeAll(async () => {
  vendorOrg = await createOrganization("Pages vendor");
  const customerOrg = await createOrganization("Pages customer", vendorOrg);
  customerAccount = await createAccount(customerOrg, "Pages fleet");
  // Two radios of the vendor's own inventory (no account): their model is offered on the upload form.
  await env.DB.prepare(
    "INSERT INTO devices (uid, org_id, brand, model, secret_hash) VALUES (?, ?, 'Northwind', 'NW-400', 'x'), (?, ?, 'Northwind', 'NW-400', 'x')",
  )
    .bind(`FWP-${crypto.randomUUID().slice(0, 8)}`, vendorOrg, `FWP-${crypto.randomUUID().slice(0, 8)}`, vendorOrg)
    .run();
  owner = await sessionCookie((await createUser({ role: "owner", orgId: vendorOrg })).email);
  customerOwner = await sessionCookie((await createUser({ role: "owner", orgId: customerOrg })).email);
});

describe("firmware pages without JavaScript", () => {
  let packageId = "";
  const file = new Uint8Array(PART_BYTES + 4321).map((_, i) => (i * 13) & 0xff);

  it("are linked from the inventory; the upload form offers the inventory's models", async () => {
    expect(await html("/devices")).toContain('href="/devices/firmware"');
    const empty = await html("/devices/firmware");
    expect(empty).toContain("No firmware packages yet");
    const form = await html("/devices/firmware/new");
    expect(form).toMatch(/enctype="multipart\/form-data"/i);
    expect(form).toMatch(/type="checkbox"[^>]*name="models" value="NW-400"/);
    expect(form).toContain('type="file"');
  });

  it("uploads a file by a plain form: stored in parts, hashed and signed, then its page", async () => {
    const answer = await post(
      "/devices/firmware/new",
      uploadForm({ version: "5.1.0", otherModels: "XR-9, XR-11", notes: "Plain form." }, file),
    );
    expect(answer.status).toBe(303);
    const location = answer.headers.get("location") ?? "";
    expect(location).toMatch(/^\/devices\/firmware\/view\/fw_/);
    packageId = location.split("/").pop() ?? "";
    const row = await env.DB.prepare("SELECT state, size, sha256, parts FROM firmware_packages WHERE id = ?")
      .bind(packageId)
      .first<{ state: string; size: number; sha256: string; parts: string }>();
    expect(row).toMatchObject({ state: "ready", size: file.length, sha256: await sha256Hex(file) });
    expect(JSON.parse(row?.parts ?? "[]")).toHaveLength(2);

    const page = await html(location);
    expect(page).toContain(await sha256Hex(file));
    expect(page).toContain("XR-9, XR-11");
    expect(page).toContain("Plain form.");
    expect(page).toContain("configuration-tool-firmware/1");
    expect(page).toMatch(/fwk_[0-9a-f]{16}/);
    expect(await html("/devices/firmware")).toContain(`href="/devices/firmware/view/${packageId}"`);
  });

  it("refuses bad input on its fields and keeps nothing", async () => {
    const count = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM firmware_packages WHERE org_id = ?")
          .bind(vendorOrg)
          .first<{ n: number }>()
      )?.n;
    const before = await count();
    const noVersion = await post("/devices/firmware/new", uploadForm({ version: "", otherModels: "XR-9" }, file.slice(0, 100)));
    expect(noVersion.status).toBe(400);
    expect(await noVersion.text()).toContain("Enter the firmware version.");
    const noModels = await post("/devices/firmware/new", uploadForm({ version: "5.2.0" }, file.slice(0, 100)));
    expect(noModels.status).toBe(400);
    expect(await noModels.text()).toContain("Choose or enter at least one radio model.");
    const taken = await post("/devices/firmware/new", uploadForm({ version: "5.1.0", otherModels: "XR-9" }, file.slice(0, 100)));
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain("already has a package of this version");
    const noFile = await post("/devices/firmware/new", uploadForm({ version: "5.3.0", otherModels: "XR-9" }, null));
    expect(noFile.status).toBe(400);
    expect(await noFile.text()).toContain("Choose the firmware file.");
    const tooLarge = await post(
      "/devices/firmware/new",
      uploadForm({ version: "5.4.0", otherModels: "XR-9" }, file.slice(0, 10)),
      owner,
      {
        "Content-Length": String(91_000_000),
      },
    );
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.text()).toContain("at most 90 MB");
    const urlEncoded = await postForm("/devices/firmware/new", { version: "5.5.0" }, { Cookie: owner });
    expect(urlEncoded.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it("shows a vendor's package read-only in its customer's account, with no delete", async () => {
    const base = `/accounts/${customerAccount}/registry/firmware`;
    const list = await html(base, customerOwner);
    expect(list).toContain(`href="${base}/view/${packageId}"`);
    expect(list).toContain("Read-only here");
    const page = await html(`${base}/view/${packageId}`, customerOwner);
    expect(page).toContain("Pages vendor");
    expect(page).not.toContain(`${base}/view/${packageId}/delete`);
    const refused = await postForm(`${base}/view/${packageId}/delete`, {}, { Cookie: customerOwner });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`${base}/view/${packageId}`);
    expect(await env.DB.prepare("SELECT 1 FROM firmware_packages WHERE id = ?").bind(packageId).first()).not.toBeNull();
  });

  it("deletes after asking, and the file goes too", async () => {
    const question = await html(`/devices/firmware/view/${packageId}/delete`);
    expect(question).toContain("Delete firmware package 5.1.0?");
    const deleted = await postForm(`/devices/firmware/view/${packageId}/delete`, {}, { Cookie: owner });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/devices/firmware");
    expect(await env.FIRMWARE?.head(`packages/${packageId}`)).toBeNull();
    expect((await request(`/devices/firmware/view/${packageId}`, { headers: { Cookie: owner } })).status).toBe(404);
  });

  it("an unfinished upload's page offers to resume it (with the script), naming each stored part's SHA-256", async () => {
    const start = await request("/api/firmware.create", {
      method: "POST",
      body: JSON.stringify({ version: "5.9.0", models: ["XR-9"] }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: owner },
    });
    const { id } = ((await start.json()) as { result: { data: { id: string } } }).result.data;
    const first = file.slice(0, PART_BYTES);
    const part = await request(`/api/firmware/${id}/parts/1`, {
      method: "PUT",
      body: first,
      headers: { Origin: ORIGIN, "Content-Type": "application/octet-stream", Cookie: owner },
    });
    expect(part.status).toBe(200);
    const page = await html(`/devices/firmware/view/${id}`);
    expect(page).toContain("Upload not finished");
    expect(page).toMatch(new RegExp(`<section[^>]*hidden[^>]*data-resume-id="${id}"`));
    expect(page).toContain(await sha256Hex(first));
    expect(page).toContain("Resume this upload");
  });
});
