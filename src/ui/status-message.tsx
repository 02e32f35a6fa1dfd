import type { ReactNode } from "react";

const tones = {
  success: "border-green-300 bg-green-50 text-green-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-brand-100 bg-brand-50 text-brand-800",
} as const;

/** A message in the page flow, announced politely (errors assertively). */
export function StatusMessage({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`mb-4 rounded-md border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
