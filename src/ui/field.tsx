import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useContext,
} from "react";
import { controlClass } from "./control-class";

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

export { controlClass };

type Labelled = {
  label: string;
  name: string;
  hint?: string /** Shown under the control; also marks it invalid for screen readers. */;
  error?: string;
};

/** What every control gets from its frame: its id, name, and the ties to its hint and error. */
type ControlProps = { id: string; name: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** A label above a control, the hint and error under it, tied to it by aria-describedby. */
function FieldFrame({
  label,
  name,
  hint,
  error,
  id,
  className,
  control,
}: Labelled & { id?: string; className: string; control: (props: ControlProps) => ReactNode }) {
  const described = useDescribed(name, id, hint, error);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={described.inputId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {control({
        id: described.inputId,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": described.describedBy,
      })}
      <HintAndError hint={hint} error={error} hintId={described.hintId} errorId={described.errorId} />
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & Labelled;

/** A labelled input with its hint and error text tied to it by aria-describedby. */
export function Field({ label, name, hint, error, id, className = "", ...input }: FieldProps) {
  return (
    <FieldFrame
      {...{ label, name, hint, error, id, className }}
      control={(props) => <input {...props} className={controlClass(error)} {...input} />}
    />
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & Labelled & { options: { value: string; label: string }[] };

/** A labelled <select>, with hint and error tied to it like Field. */
export function SelectField({ label, name, options, hint, error, id, className = "", ...select }: SelectFieldProps) {
  return (
    <FieldFrame
      {...{ label, name, hint, error, id, className }}
      control={(props) => (
        <select {...props} className={`${controlClass(error)} bg-white`} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & Labelled;

/** A labelled <textarea>, with hint and error tied to it like Field. */
export function TextareaField({ label, name, hint, error, id, className = "", ...textarea }: TextareaFieldProps) {
  return (
    <FieldFrame
      {...{ label, name, hint, error, id, className }}
      control={(props) => <textarea {...props} className={controlClass(error)} {...textarea} />}
    />
  );
}
