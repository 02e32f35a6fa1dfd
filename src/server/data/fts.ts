/**
 * Name search through SQLite FTS5 (DESIGN.md §8): what a person types becomes an FTS5 query
 * that matches names having words that start with each typed word, in any order, without
 * case or accents ("fle 2" finds "Fleet 20"). Every word is quoted, so nothing typed is FTS
 * syntax (`"`, `*`, `NEAR`, `-`, `:`, `^`, parentheses are plain text), and the query is
 * bounded, so no input makes SQLite fail — unlike LIKE, which answers "pattern too complex".
 *
 * A table opts in with an external-content FTS5 table named `<table>_fts` on its `name`,
 * kept in step by triggers (see migrations/0010_list_indexes.sql for the pattern).
 */

/** At most this many words, each at most this long: a longer search is no better a search. */
const MAX_WORDS = 8;
const MAX_WORD_LENGTH = 40;

/**
 * The FTS5 MATCH expression for a search, or null when the search has no word to look for
 * (empty, or only punctuation): callers then match nothing, or everything when it was empty.
 * Words are split the way the unicode61 tokenizer splits names (letters, digits, marks).
 */
export function ftsQuery(search: string): string | null {
  const words = search.normalize("NFKC").match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? [];
  const terms = words.slice(0, MAX_WORDS).map((word) => `"${[...word].slice(0, MAX_WORD_LENGTH).join("")}"*`);
  return terms.length ? terms.join(" ") : null;
}

/**
 * The rowids of `table` whose name matches, as an SQL fragment for `rowid IN (…)`, with its
 * one parameter. `table` is a fixed name from the data module, never input.
 */
export function ftsRowids(
  table: "accounts" | "sites" | "locations" | "profiles" | "users" | "fc_customers" | "fc_sessions",
  query: string,
): { sql: string; params: [string] } {
  return { sql: `SELECT rowid FROM ${table}_fts WHERE ${table}_fts MATCH ?`, params: [query] };
}

/**
 * Substring search for short lists that stay inside one small scope (an account's profiles,
 * an organization's users, one account's log by actor): `instr` over the scope's rows, which
 * an index has already narrowed. Unlike LIKE it has no pattern to be "too complex", and no
 * wildcard characters to escape. SQLite's lower() folds ASCII only; both sides fold alike.
 */
export function containsText(column: string): string {
  return `instr(lower(${column}), lower(?)) > 0`;
}
