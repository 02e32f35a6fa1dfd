/**
 * The firmware upload form with JavaScript (issue 26), no React. Without it the form posts the
 * file whole (up to 90 MB) and the server puts it into R2 in parts. With it the file goes in
 * parts of 8 MiB (up to 512 MB): firmware.create, then PUT /api/firmware/<id>/parts/<n> for each
 * slice with a progress bar, a failed part tried again three times, then a "Resume" that carries
 * on from the first part not stored; firmware.complete measures and signs on the server, and the
 * page goes to the package. The texts ride along as data attributes of the form's wrapper.
 */
type Answer<T> = {
  result?: { data: T };
  error?: { message?: string; data?: { fieldErrors?: Record<string, string[]> } };
};

class Refused extends Error {}

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ""));

async function procedure<T>(name: string, input: unknown): Promise<T> {
  const response = await fetch(`/api/${name}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
  const answer = (await response.json().catch(() => ({}))) as Answer<T>;
  if (answer.result) return answer.result.data;
  const fieldMessages = Object.values(answer.error?.data?.fieldErrors ?? {}).flat();
  throw new Refused(fieldMessages.length ? fieldMessages.join(" ") : (answer.error?.message ?? String(response.status)));
}

const hex = (digest: ArrayBuffer) => [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");

type Upload = { id: string; file: File; partBytes: number; total: number; stored: Set<number> };

/**
 * An upload begun earlier (the package page of an unfinished upload): the parts the server has
 * are kept where the chosen file's slice has the same SHA-256; any other is sent again. A file
 * with fewer parts than were stored is another file.
 */
async function resumedUpload(text: DOMStringMap, file: File): Promise<Upload> {
  const partBytes = Number(text.partBytes);
  const total = Math.max(1, Math.ceil(file.size / partBytes));
  const parts = JSON.parse(text.parts ?? "[]") as { partNumber: number; size: number; sha256: string | null }[];
  if (parts.some((part) => part.partNumber > total)) throw new Refused(text.textOtherFile ?? "");
  const stored = new Set<number>();
  for (const part of parts) {
    const slice = file.slice((part.partNumber - 1) * partBytes, part.partNumber * partBytes);
    if (slice.size !== part.size || !part.sha256) continue;
    if (hex(await crypto.subtle.digest("SHA-256", await slice.arrayBuffer())) === part.sha256) stored.add(part.partNumber);
  }
  return { id: text.resumeId ?? "", file, partBytes, total, stored };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function button(text: string): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  element.hidden = true;
  element.className =
    "inline-flex items-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-50";
  return element;
}

function enhance(root: HTMLElement) {
  const form = root.querySelector("form");
  const fileInput = form?.querySelector<HTMLInputElement>('input[type="file"]');
  if (!form || !fileInput) return;
  const text = root.dataset;
  const accountId = text.accountId || undefined;
  const frame = accountId ? { accountId } : {};
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]');

  const panel = document.createElement("section");
  panel.hidden = true;
  panel.className = "mt-4 flex max-w-xl flex-col gap-2";
  const bar = document.createElement("div");
  bar.setAttribute("role", "progressbar");
  bar.setAttribute("aria-valuemin", "0");
  bar.setAttribute("aria-valuemax", "100");
  bar.setAttribute("aria-valuenow", "0");
  bar.className = "h-3 w-full overflow-hidden rounded bg-slate-200";
  const fillBar = document.createElement("div");
  fillBar.className = "h-full bg-brand-600";
  fillBar.style.width = "0%";
  bar.append(fillBar);
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  status.className = "text-sm text-slate-800";
  const actions = document.createElement("div");
  actions.className = "flex flex-wrap gap-2";
  const resume = button(text.textResume ?? "");
  const cancel = button(text.textCancel ?? "");
  actions.append(resume, cancel);
  panel.append(bar, status, actions);
  form.after(panel);

  let upload: Upload | null = null;
  // The package page's "resume" form is shown only where it can work: with this script.
  if (text.resumeId) root.hidden = false;

  const busy = (on: boolean) => {
    if (submit) submit.disabled = on;
    resume.hidden = true;
    cancel.hidden = on || !upload;
  };
  const progress = () => {
    if (!upload) return;
    const percent = Math.round((upload.stored.size / upload.total) * 100);
    bar.setAttribute("aria-valuenow", String(percent));
    fillBar.style.width = `${percent}%`;
    status.textContent = fill(text.textParts ?? "", { done: upload.stored.size, total: upload.total, percent });
  };

  async function sendPart(n: number) {
    if (!upload) return;
    const { id, file, partBytes } = upload;
    const query = accountId ? `?accountId=${encodeURIComponent(accountId)}` : "";
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await fetch(`/api/firmware/${encodeURIComponent(id)}/parts/${n}${query}`, {
          method: "PUT",
          headers: { "Content-Type": "application/octet-stream" },
          body: file.slice((n - 1) * partBytes, n * partBytes),
        });
        if (response.ok) return;
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        // A refusal (4xx) is not fixed by sending the same bytes again; a server or network failure may be.
        if (response.status < 500 && response.status !== 408 && response.status !== 429)
          throw new Refused(answer.message ?? String(response.status));
        throw new Error(answer.message ?? String(response.status));
      } catch (error) {
        if (error instanceof Refused || attempt >= 3) throw error;
        status.textContent = fill(text.textRetrying ?? "", { part: n });
        await sleep(1000 * 2 ** attempt);
      }
    }
  }

  async function run() {
    if (!upload) return;
    busy(true);
    let current = 0;
    try {
      for (let n = 1; n <= upload.total; n += 1) {
        if (upload.stored.has(n)) continue;
        current = n;
        await sendPart(n);
        upload.stored.add(n);
        progress();
      }
      current = 0;
      status.textContent = text.textFinishing ?? "";
      const done = await procedure<{ id: string }>("firmware.complete", { id: upload.id, ...frame });
      location.assign((text.packageHref ?? "").replace("%7Bid%7D", encodeURIComponent(done.id)));
    } catch (error) {
      const reason = error instanceof Refused ? error.message : (text.textNetwork ?? "");
      status.textContent = current ? fill(text.textStopped ?? "", { part: current, reason }) : reason;
      busy(false);
      resume.hidden = false;
      // The keyboard lands where the next step is.
      resume.focus();
    }
  }

  async function createdUpload(file: File, fields: FormData, typed: string[]): Promise<Upload> {
    const created = await procedure<{ id: string; partBytes: number }>("firmware.create", {
      ...frame,
      version: String(fields.get("version") ?? ""),
      models: [...fields.getAll("models").map(String), ...typed],
      notes: String(fields.get("notes") ?? ""),
      size: file.size,
    });
    return {
      id: created.id,
      file,
      partBytes: created.partBytes,
      total: Math.max(1, Math.ceil(file.size / created.partBytes)),
      stored: new Set(),
    };
  }

  form.addEventListener("submit", async (event) => {
    const file = fileInput.files?.[0];
    // No file chosen: the plain post lets the server say so beside the field.
    if (!file || upload) return;
    event.preventDefault();
    const fields = new FormData(form);
    const typed = String(fields.get("otherModels") ?? "")
      .split(",")
      .map((model) => model.trim())
      .filter(Boolean);
    panel.hidden = false;
    bar.setAttribute("aria-label", fill(text.textLabel ?? "", { name: file.name }));
    status.textContent = text.textStarting ?? "";
    busy(true);
    try {
      upload = text.resumeId ? await resumedUpload(text, file) : await createdUpload(file, fields, typed);
      progress();
      await run();
    } catch (error) {
      status.textContent = error instanceof Refused ? error.message : (text.textNetwork ?? "");
      busy(false);
    }
  });

  resume.addEventListener("click", () => void run());
  cancel.addEventListener("click", async () => {
    if (!upload) return;
    const { id } = upload;
    busy(true);
    try {
      await procedure("firmware.delete", { id, ...frame });
      upload = null;
      panel.hidden = true;
      // On the package page the package is gone: back to the list.
      if (text.listHref) location.assign(text.listHref);
    } catch (error) {
      status.textContent = error instanceof Refused ? error.message : (text.textNetwork ?? "");
    }
    busy(false);
  });
}

for (const root of document.querySelectorAll<HTMLElement>("[data-firmware-upload]")) enhance(root);

export {};
