import { mkdir, open, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The simulator's demo radios are shared by specs that run in parallel workers. A test that
// sends commands to one and reads its queue or history holds that radio's lock, so no other
// spec's commands reach the same radio meanwhile. The lock is a file only one process can
// create; one left by a killed run is taken over once it is older than any test may run.

const STALE_MS = 5 * 60_000;

async function take(file: string): Promise<void> {
  for (;;) {
    try {
      await (await open(file, "wx")).close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(file).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_MS) await unlink(file).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Runs `use` while this worker alone drives the demo radio `uid`. */
export async function withRadio<T>(uid: string, use: () => Promise<T>): Promise<T> {
  const dir = join(tmpdir(), `configuration-tool-e2e-radios-${process.env.E2E_PORT ?? "default"}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, uid);
  await take(file);
  try {
    return await use();
  } finally {
    await unlink(file).catch(() => undefined);
  }
}
