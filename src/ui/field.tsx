import {
  createContext,
  type InputHTMLAttributes,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useContext,
} from "react";

/**
 * A field's id is its form's prefix and its name, so an error summary can link to it by name
 * (`href="#field-name"`) in the server's HTML too. A page with two forms that share field
 * names gives one of them its own prefix.
 */
const FieldIdPrefix = createContext("field-");
export const FieldIdScope = FieldIdPrefix.Provider;

/** The id of the control named `name` in the current form. */
export function useFieldId(name: string, id?: string): string {
  const prefix = useContext(FieldIdPrefix);
  return id ?? `${prefix}${name}`;
}

type Described = { inputId: string; describedBy: string | undefined; hintId?: string; errorId?: string };

function useDescribed(name: string, id: string | undefined, hint?: string, error?: string): Described {
  const inputId = useFieldId(name, id);
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return { inputId, hintId, errorId, describedBy: [hintId, errorId].filter(Boolean).join(" ") || undefined };
}

/**
 * The hint, and the error in the GOV.UK way: under the label's hint, tied to the control by
 * aria-describedby; the form's error summary (not this text) is what gets announced.
 */
function HintAndError({ hint, error, hintId, errorId }: { hint?: string; error?: string; hintId?: string; errorId?: string }) {
  return (
    <>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

/** The classes of a text control, red when it has an error. */
export const controlClass = (error?: string) =>
  "block w-full min-w-0 rounded-md border px-3 py-2 text-base shadow-sm sm:text-sm " +
  (error ? "border-red-600 text-red-900" : "border-slate-500");

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  hint?: string;
  /** The message shown under the field; it also marks the input invalid for screen readers. */
  error?: string;
};

/** A labelled input with its hint and error text tied to it by aria-describedby. */
export function Field({ label, name, hint, error, id, className = "", ...input }: FieldProps) {
  const described = useDescribed(name, id, hint, error);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={described.inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={described.inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described.describedBy}
        className={controlClass(error)}
        {...input}
      />
      <HintAndError hint={hint} error={error} hintId={described.hintId} errorId={described.errorId} />
    </div>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  name: string;
  options: { value: string; label: string }[];
  hint?: string;
  error?: string;
};

/** A labelled <select>, with hint and error tied to it like Field. */
export function SelectField({ label, name, options, hint, error, id, className = "", ...select }: SelectFieldProps) {
  const described = useDescribed(name, id, hint, error);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={described.inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={described.inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described.describedBy}
        className={`${controlClass(error)} bg-white`}
        {...select}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <HintAndError hint={hint} error={error} hintId={described.hintId} errorId={described.errorId} />
    </div>
  );
}

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  name: string;
  hint?: string;
  error?: string;
};

/** A labelled <textarea>, with hint and error tied to it like Field. */
export function TextareaField({ label, name, hint, error, id, className = "", ...textarea }: TextareaFieldProps) {
  const described = useDescribed(name, id, hint, error);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={described.inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={described.inputId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={described.describedBy}
        className={controlClass(error)}
        {...textarea}
      />
      <HintAndError hint={hint} error={error} hintId={described.hintId} errorId={described.errorId} />
    </div>
  );
}
