import { commandTypes } from "@/schema/fleet/command-kinds";

/**
 * How the simulated radio answers the commands a check-in hands it (issue 13): it says it has
 * each one, then does it: a message goes on its display, locate beeps and reports a position,
 * stun makes it ignore everything but revive (those fail with code STUNNED).
 */
export type RadioCommand = { id: string; type: string; params: Record<string, unknown> };

/** What the radio remembers between two clicks (hidden fields of the simulator form). */
export type Answered = {
  type: string;
  state: string;
  note?: string;
  beep?: { seconds: number; latitude: number; longitude: number };
};
export type RadioMemory = { stunned: boolean; messages: string[]; answered: Answered[] };

type Report = (id: string, body: Record<string, unknown>) => Promise<{ status: number }>;

/** A fixed demo position near the vendor's office, moved a little each time. */
function position(): { latitude: number; longitude: number; accuracyMeters: number } {
  const jitter = () => Math.round((Math.random() - 0.5) * 2000) / 1_000_000;
  return { latitude: 45.5017 + jitter(), longitude: -73.5673 + jitter(), accuracyMeters: 8 };
}

export async function answerCommands(
  commands: RadioCommand[],
  memory: RadioMemory,
  report: Report,
  running: string,
): Promise<RadioMemory> {
  let { stunned } = memory;
  const messages = [...memory.messages];
  const answered: RadioMemory["answered"] = [];
  for (const command of commands) {
    if (!(commandTypes as readonly string[]).includes(command.type)) continue;
    const delivered = await report(command.id, { state: "delivered" });
    // Cancelled or expired meanwhile (409): the radio does not run it.
    if (delivered.status !== 200) continue;
    if (stunned && command.type !== "revive") {
      await report(command.id, { state: "failed", code: "STUNNED", detail: "The radio is stunned." });
      answered.push({ type: command.type, state: "failed", note: "STUNNED" });
      continue;
    }
    let result: Record<string, unknown> = {};
    let beep: Answered["beep"];
    if (command.type === "message") {
      messages.unshift(String(command.params.text ?? ""));
      result = { shownAt: new Date().toISOString() };
    } else if (command.type === "locate") {
      const where = position();
      result = where;
      beep = { seconds: Number(command.params.beepSeconds ?? 10), latitude: where.latitude, longitude: where.longitude };
    } else if (command.type === "ping") {
      result = { battery: 87, signal: -61 };
    } else if (command.type === "sync") {
      result = { revision: running || null };
    } else if (command.type === "stun") {
      stunned = true;
    } else if (command.type === "revive") {
      stunned = false;
    }
    await report(command.id, { state: "succeeded", result });
    answered.push({ type: command.type, state: "succeeded", ...(beep ? { beep } : {}) });
  }
  return { stunned, messages: messages.slice(0, 5), answered: [...answered, ...memory.answered].slice(0, 8) };
}

/** The memory as posted back by the simulator form (anything odd is forgotten). */
export function memoryFrom(posted: { stunned?: string; memory?: string }): RadioMemory {
  try {
    const parsed = JSON.parse(posted.memory ?? "{}") as Partial<RadioMemory>;
    return {
      stunned: posted.stunned === "1",
      messages: Array.isArray(parsed.messages) ? parsed.messages.map(String).slice(0, 5) : [],
      answered: Array.isArray(parsed.answered)
        ? parsed.answered.slice(0, 8).map((a) => ({
            type: String(a.type),
            state: String(a.state),
            ...(a.note ? { note: String(a.note) } : {}),
            ...(a.beep
              ? {
                  beep: {
                    seconds: Number(a.beep.seconds),
                    latitude: Number(a.beep.latitude),
                    longitude: Number(a.beep.longitude),
                  },
                }
              : {}),
          }))
        : [],
    };
  } catch {
    return { stunned: posted.stunned === "1", messages: [], answered: [] };
  }
}
