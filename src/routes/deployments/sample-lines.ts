import type { ConfigDiffLine } from "@/schema/fleet/desired-config";
import { type DiffLine, type DiffWords, showValue } from "@/ui/activity/diff-lines";
import type { Text } from "@/ui/activity/field-labels";

/**
 * The confirm page's per-radio difference in the words of the change list (issue 23): a line
 * of the desired configuration's diff ("network.wifi.0.ssid", "profiles.channels.settings…")
 * gets the labels and value names the activity log uses ("Wi-Fi network 1 › SSID").
 */
export function sampleLines(lines: ConfigDiffLine[], words: DiffWords, text: Text): DiffLine[] {
  return lines.map((line) => {
    const { label, path, value } = labelled(line.path.split("."), words, text);
    const show = (raw: string | undefined) => (raw === undefined ? null : value(parse(raw), path));
    return { field: label, before: show(line.before), after: show(line.after) };
  });
}

type Described = { label: string; path: string[]; value: (value: unknown, path: string[]) => string };

function labelled(segments: string[], words: DiffWords, text: Text): Described {
  const [root = "", ...rest] = segments;
  const label = (path: string[]) => words.label?.(path) ?? path.join(" › ");
  const plain = (value: unknown, path: string[]) => showValue(value, words, path);
  // List positions are 0-based in the configuration, "#1"-based in the change list.
  const items = (path: string[]) => path.map((segment) => (/^\d+$/.test(segment) ? `#${Number(segment) + 1}` : segment));
  if (root === "network") {
    const path = items(rest);
    return { label: label(path), path, value: plain };
  }
  if (root === "networkSources") {
    const path = items(rest);
    return {
      label: `${label(path)} › ${text("confirmDeployment.source")}`,
      path,
      value: (level) => (typeof level === "string" ? text(`devices.view.levels.${level}`) : plain(level, path)),
    };
  }
  if (root === "profiles") {
    const [type = "", field = "", ...inner] = rest;
    const profile = text(`profiles.types.${type}`);
    if (field === "settings") {
      const path = ["settings", ...items(inner)];
      // "Settings › Channel 1 › Frequency" under the profile's type: the leading "Settings" is implied.
      const labels = label(path).split(" › ").slice(1);
      return { label: [profile, ...labels].join(" › "), path, value: plain };
    }
    const key = field === "rule" ? "activityLogs.entityTypes.rule" : `activityLogs.fields.${field}`;
    return { label: `${profile} › ${text(key)}`, path: [field], value: plain };
  }
  const path = items(segments);
  return { label: label(path), path, value: plain };
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
