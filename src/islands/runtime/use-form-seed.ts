import { type RefObject, useEffect, useState } from "react";

/** A form control as the person left it: its value (a radio group's chosen one) and whether a box is ticked. */
export type ControlState = { value: string; checked: boolean };
/** The form's control of that name as it is now, if there is one. */
export type ReadControl = (name: string) => ControlState | undefined;

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
    if (controls) {
      seed((name) => {
        // An input, select or textarea, or a RadioNodeList (same-named radios), whose value is the chosen one.
        const control = controls.namedItem(name) as HTMLInputElement | null;
        return control ? { value: control.value, checked: control.checked === true } : undefined;
      });
    }
    setEnhanced(true);
  }, []);
  return enhanced;
}
