/**
 * Generators of hostile input for the fuzz test: a seeded PRNG (so a failure reproduces with
 * its seed), hostile strings and values, and mutations of a valid sample input.
 */

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)] as T };
}
export type Random = ReturnType<typeof seededRandom>;

/** Nested arrays `depth` deep around `leaf`. */
export function deep(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
}

export const hostileStrings: readonly string[] = [
  "",
  " ",
  "\u0000",
  "name\u0000",
  "\u0000\u0000\u0000",
  "\u0001\u0008\u000b\u001b\u007f",
  "\t\n\r",
  "line\nbreak",
  "\uD800",
  "a\uDC00b",
  "x\uD83D",
  "\uDFFF\uD800",
  "%",
  "_",
  "\\",
  "%_\\%_",
  "%".repeat(60),
  "_%".repeat(40),
  "é".repeat(40),
  "ü".repeat(119),
  "😀".repeat(30),
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 中文 العربية",
  "\u202Ename\u202C",
  "\uFEFF",
  "\uFFFF\uFFFE",
  "a\u0301".repeat(200),
  "\u{10FFFF}",
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '" OR 1=1 --',
  "*",
  "[a-z]*?",
  "NEAR(a b)",
  '"unterminated',
  "a AND OR NOT",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9".repeat(400),
  "a".repeat(121),
  "a".repeat(5000),
  "<script>alert(1)</script>",
  "../../../etc/passwd",
  "javascript:alert(1)",
  "http://[::1]:80/",
  "\r\n\r\nHTTP/1.1 200 OK",
  "2026-02-30",
  "9999-99-99T99:99:99Z",
  "-0001-01-01",
];

export const hostileNumbers: readonly number[] = [
  0,
  -1,
  1.5,
  -0.000001,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

/** Anything JSON can say, from the plain wrong type to the huge and the deep. */
export function hostileValue(random: Random): unknown {
  switch (random.int(9)) {
    case 0:
    case 1:
    case 2:
      return random.pick(hostileStrings);
    case 3:
      return random.pick(hostileNumbers);
    case 4:
      return random.pick([null, true, false]);
    case 5:
      return random.pick([[], [null], {}, { a: 1 }, [random.pick(hostileStrings)], { id: random.pick(hostileStrings) }]);
    case 6:
      return deep(random.pick([20, 40, 200]));
    case 7:
      return Array.from({ length: random.pick([100, 1000, 5000]) }, () => random.pick(hostileStrings).slice(0, 20));
    default:
      return withOwnKey({}, random.pick(prototypeKeys), { polluted: true, version: 1, role: "owner" });
  }
}

export const prototypeKeys = ["__proto__", "constructor", "prototype"] as const;

/** An own property, even named __proto__ (assignment would set the prototype instead). */
export function withOwnKey<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

type Path = (string | number)[];

/** The paths to every value inside `value`, the root included. */
function paths(value: unknown, at: Path = [], found: Path[] = []): Path[] {
  found.push(at);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths(item, [...at, i], found);
  } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...at, k], found);
  return found;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...Path];
  const container = (root && typeof root === "object" ? root : {}) as Record<string | number, unknown>;
  withOwnKey(container, String(head), setAt(container[head], rest, value));
  return container;
}

const clone = (value: unknown): unknown => (value === undefined ? undefined : structuredClone(value));

/** One hostile variation of a valid sample: a value replaced, keys added or removed, prototype keys. */
export function mutate(sample: unknown, random: Random): unknown {
  const input = clone(sample);
  const all = paths(input);
  const objects = all.filter((p) => {
    let node: unknown = input;
    for (const key of p) node = (node as Record<string | number, unknown>)[key];
    return node !== null && typeof node === "object" && !Array.isArray(node);
  });
  switch (random.int(6)) {
    case 0:
    case 1:
      return setAt(input, random.pick(all), hostileValue(random));
    case 2: {
      let result = input;
      for (const path of all.slice(1)) if (random.next() < 0.6) result = setAt(result, path, hostileValue(random));
      return result;
    }
    case 3: {
      const path = objects.length ? random.pick(objects) : [];
      return setAt(input, [...path, random.pick(prototypeKeys)], hostileValue(random));
    }
    case 4: {
      const path = objects.length ? random.pick(objects) : [];
      return setAt(input, [...path, random.pick(hostileStrings).slice(0, 50) || "x"], hostileValue(random));
    }
    default: {
      const path = random.pick(all);
      if (path.length === 0) return undefined;
      const parent = path.slice(0, -1);
      let node: unknown = input;
      for (const key of parent) node = (node as Record<string | number, unknown>)[key];
      if (node && typeof node === "object") delete (node as Record<string | number, unknown>)[path[path.length - 1] as string];
      return input;
    }
  }
}
