/** The classes of a text control, red when it has an error (plain, so browser scripts share it without React). */
export const controlClass = (error?: string) =>
  "block w-full min-w-0 rounded-md border px-3 py-2 text-base shadow-sm sm:text-sm " +
  (error ? "border-red-600 text-red-900" : "border-slate-500");
