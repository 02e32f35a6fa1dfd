/**
 * A rule's limits and the patterns of its labels, without the zod schemas of ./rules: the
 * rule-form island checks the same in the browser and must not pull zod in (issue 10 §2).
 */
export const ruleLimits = {
  rules: 200,
  profiles: 8,
  places: 50,
  models: 20,
  tags: 20,
  label: 40,
  uidPattern: 64,
} as const;

/** Letters, digits and . _ : - in a uid pattern, with * (any run) and ? (one character). */
export const UID_PATTERN_SOURCE = "^[A-Za-z0-9*?_.:-]+$";
/** A tag or model: starts with a letter or digit; then letters, digits, spaces, . _ / + -. */
export const LABEL_SOURCE = "^[A-Za-z0-9][A-Za-z0-9 ._/+-]*$";
