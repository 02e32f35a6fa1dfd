import { type FormEvent, type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { type ErrorSummaryTexts, errorSummaryKeys, focusErrorSummary } from "@/ui/error-summary";
import { type Messages, translate } from "./messages";
import { showToast } from "./shell-events";

/** Field name → message (already translated), "form" for the whole form. */
export type FieldErrors = Record<string, string>;

/** What a page's action answers an island that posts with `Accept: application/json`. */
type ActionReply = { ok: true; redirect: string } | { ok: false; errors: FieldErrors };

type Options = {
  /** Client rules; the server checks the same and more. Returns no keys when valid. */
  validate?: (values: Record<string, string>) => FieldErrors;
  /** Shown when the request itself fails (offline, server down). */
  networkErrorText: string;
  /** The errors of a post the server answered without JavaScript; they stand until the first submit here. */
  initialErrors?: FieldErrors;
};

function valuesOf(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === "string") values[key] = value;
  return values;
}

/** The error summary's words from an island's messages (declare `formMessageKeys` in its registry entry). */
export function summaryTexts(messages: Messages): ErrorSummaryTexts {
  return { title: translate(messages, "errorSummary.title"), titlePrefix: translate(messages, "errorSummary.titlePrefix") };
}

/** The translation keys every form island declares: its error summary's. */
export const formMessageKeys = errorSummaryKeys;

/**
 * Progressive enhancement of a server form (DESIGN.md §1): the same <form method="post">
 * that works without JavaScript, validated on submit first and then on every change (spec §5),
 * posted in the background with a pending state; errors appear in the form's error summary
 * (which takes the focus) and under their fields without a reload, and nothing typed is lost;
 * success follows the server's redirect, whose flash becomes a toast.
 */
export function useEnhancedForm({ validate, networkErrorText, initialErrors = {} }: Options) {
  const [errors, setErrors] = useState<FieldErrors>(initialErrors);
  const [pending, setPending] = useState(false);
  // The server's errors are shown (and focused by autofocus) until the first submit here.
  const [fromServer, setFromServer] = useState(Object.keys(initialErrors).length > 0);
  const submitted = useRef(false);

  const onChange = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      if (submitted.current && validate) setErrors(validate(valuesOf(event.currentTarget)));
    },
    [validate],
  );

  const onSubmit = useCallback(
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (pending) return;
      submitted.current = true;
      const form = event.currentTarget;
      const values = valuesOf(form);
      const clientErrors = validate?.(values) ?? {};
      // Rendered at once, so the summary can take the focus right below.
      flushSync(() => {
        setFromServer(false);
        setErrors(clientErrors);
      });
      if (Object.keys(clientErrors).length > 0) {
        focusErrorSummary(form);
        return;
      }
      setPending(true);
      try {
        const response = await fetch(form.action, {
          method: "POST",
          body: new URLSearchParams(values),
          headers: { Accept: "application/json" },
        });
        const reply = (await response.json()) as ActionReply;
        if (reply.ok) {
          location.assign(reply.redirect);
          return; // stay pending while the browser navigates
        }
        flushSync(() => {
          setPending(false);
          setErrors(reply.errors);
        });
        // A form without a summary (one button in a list row) says it in a toast.
        if (!focusErrorSummary(form) && reply.errors.form) showToast("error", reply.errors.form);
        return;
      } catch {
        showToast("error", networkErrorText);
      }
      setPending(false);
    },
    [pending, validate, networkErrorText],
  );

  return { errors, pending, onSubmit, onChange, fromServer };
}

/**
 * A form control by name, as the person left it: an input, select or textarea, or same-named
 * radios (a RadioNodeList, whose value is the chosen one and which has no `checked`).
 */
export type ReadControl = (name: string) => { value: string; checked?: boolean } | null;

/**
 * On a slow phone the server's form is usable before its island hydrates. Hydration leaves what
 * the person chose or typed in the page, but state initialised from the server's props would put
 * the server's values back at the next render (a select reverts, a box unticks, a section the
 * person opened hides). Once hydrated, this hands `seed` the form's controls as they are, so the
 * island takes them into its state. Returns whether that has happened: the island is enhanced.
 */
export function useFormSeed(form: RefObject<HTMLFormElement | null>, seed: (read: ReadControl) => void): boolean {
  const [enhanced, setEnhanced] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration; later renders own the form
  useEffect(() => {
    const controls = form.current?.elements;
    if (controls) seed((name) => controls.namedItem(name) as HTMLInputElement | null);
    setEnhanced(true);
  }, []);
  return enhanced;
}
