/** The error summary's classes, shared by its React component and the plain scripts that draw it in the browser. */
export const errorSummaryClasses = {
  box: "rounded-md border-2 border-red-700 bg-white px-4 py-3 text-sm text-slate-900 focus:outline-3 focus:outline-offset-2 focus:outline-brand-600",
  title: "text-base font-bold text-slate-900",
  message: "mt-2",
  list: "mt-2 flex list-none flex-col gap-1",
  link: "font-semibold text-red-800 underline",
} as const;
