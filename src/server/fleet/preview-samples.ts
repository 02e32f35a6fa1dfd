import { type ConfigDiffLine, configDiff, desiredConfig, type RevisionContent } from "@/schema/fleet/desired-config";
import { parseTags } from "@/server/data/devices";
import type { Db } from "../data/db";
import { revisionContent } from "../data/revisions";

type SampleRadio = { uid: string; site_id: string | null; location_id: string | null; model: string; tags: string };

/**
 * The confirm screen's diff for a few radios: what the revision now deployed gives each, against
 * what the account's configuration would give it. A stored revision that cannot be read (not
 * JSON, or not the shape a revision has) must not make the screen fail: the preview then says
 * so (`unreadable`) and shows no lines, and deploying still replaces what is there.
 */
export async function previewSamples(
  db: Db,
  currentId: string | null,
  content: RevisionContent,
  radios: SampleRadio[],
): Promise<{ samples: { uid: string; lines: ConfigDiffLine[] }[]; unreadable: boolean }> {
  try {
    const before = currentId ? await revisionContent(db, currentId) : null;
    const samples = radios.map((radio) => {
      const device = {
        uid: radio.uid,
        siteId: radio.site_id,
        locationId: radio.location_id,
        model: radio.model,
        tags: parseTags(radio.tags),
      };
      return { uid: radio.uid, lines: configDiff(before ? desiredConfig(before, device) : {}, desiredConfig(content, device)) };
    });
    return { samples, unreadable: false };
  } catch (error) {
    // Malformed stored content surfaces as a parse or type error; anything else is a real fault.
    if (!(error instanceof SyntaxError || error instanceof TypeError)) throw error;
    return { samples: radios.map((radio) => ({ uid: radio.uid, lines: [] })), unreadable: true };
  }
}
