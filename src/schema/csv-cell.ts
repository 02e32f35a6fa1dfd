/**
 * CSV cells and spreadsheets (issue 23): a cell starting with =, +, -, @, a tab or a carriage
 * return is run as a formula by a spreadsheet, so every cell of every CSV the app writes goes
 * through `inert`, and the import reads a cell written that way back as it was (`fromInert`),
 * so a file exported and edited in a text editor imports with the same uids and names.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell a spreadsheet would run as a formula is kept as text, behind an apostrophe. */
export function inert(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell `inert` protected, as it was; any other cell unchanged. */
export function fromInert(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}
