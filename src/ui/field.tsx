import { type InputHTMLAttributes, useId } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  hint?: string;
  /** The message shown under the field; it also marks the input invalid for screen readers. */
  error?: string;
};

/** A labelled input with its hint and error text tied to it by aria-describedby. */
export function Field({ label, name, hint, error, id, className = "", ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? `${generated}-${name}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={
          "block w-full rounded-md border px-3 py-2 text-base shadow-sm sm:text-sm " +
          (error ? "border-red-500 text-red-900" : "border-slate-300")
        }
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
