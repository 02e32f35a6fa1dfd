// A git merge driver for the translation files: a three-way merge of two JSON trees, key by
// key, so that branches adding strings to the same locales/<lng>/<ns>.json never conflict.
// Enable once per clone: git config merge.json.driver "node tooling/merge-json.mjs %O %A %B"
// (.gitattributes names the files). A key both sides changed differently is a real conflict:
// the driver keeps ours, prints the key and exits 1 so git reports the file as conflicted.
import { readFileSync, writeFileSync } from "node:fs";

const [basePath, oursPath, theirsPath] = process.argv.slice(2);
const read = (p) => JSON.parse(readFileSync(p, "utf8") || "{}");
const [base, ours, theirs] = [read(basePath), read(oursPath), read(theirsPath)];
const isTree = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const conflicts = [];

function merge(b, o, t, path) {
  const keys = new Set([...Object.keys(o ?? {}), ...Object.keys(t ?? {})]);
  const out = {};
  for (const key of keys) {
    const [bv, ov, tv] = [b?.[key], o?.[key], t?.[key]];
    let v;
    if (same(ov, tv)) v = ov;
    else if (same(bv, ov)) v = tv;
    else if (same(bv, tv)) v = ov;
    else if (isTree(ov) && isTree(tv)) v = merge(isTree(bv) ? bv : {}, ov, tv, `${path}${key}.`);
    else {
      conflicts.push(`${path}${key}`);
      v = ov;
    }
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function sorted(value) {
  if (!isTree(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted(value[k])]),
  );
}

writeFileSync(oursPath, `${JSON.stringify(sorted(merge(base, ours, theirs, "")), null, 2)}\n`);
if (conflicts.length) {
  console.error(`merge-json: both sides changed ${conflicts.join(", ")}`);
  process.exit(1);
}
