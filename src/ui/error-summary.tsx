import { useEffect } from "react";
import { errorSummaryClasses as classes } from "./error-summary-classes";
import { useFieldId } from "./field";

/** The summary's own words, already translated (see `errorSummaryKeys`). */
export type ErrorSummaryTexts = { title: string; titlePrefix: string };

/** The translation keys an island with a form declares for its summary. */
export const errorSummaryKeys = ["errorSummary.title", "errorSummary.titlePrefix"] as const;

/** Keys of a form's errors that are not a field: the whole form, and the reload offer of a stale save. */
const NOT_FIELDS = new Set(["form", "conflict"]);

type ErrorSummaryProps = {
  /** Field name → message, "form" for the whole form (already translated). */
  errors: Record<string, string>;
  texts: ErrorSummaryTexts;
  /** Offered under a stale save's message: the page again, with the current version. */
  reload?: { href: string; text?: string };
  /** The page was just rendered with these errors (a post without JavaScript): focus here at once. */
  autoFocus?: boolean;
};

/** A message that links to its field; with JavaScript the click also puts the focus in the field. */
function FieldLink({ name, text }: { name: string; text: string }) {
  const id = useFieldId(name);
  return (
    <a
      href={`#${id}`}
      className={classes.link}
      onClick={(event) => {
        const field = document.getElementById(id);
        if (!field || !("focus" in field)) return;
        event.preventDefault();
        // The label above the field stays in view (GOV.UK): scroll to the field's group.
        (field.parentElement ?? field).scrollIntoView({ block: "start" });
        field.focus({ preventScroll: true });
      }}
    >
      {text}
    </a>
  );
}

/**
 * The GOV.UK error summary at the top of a form after a failed submit: what went wrong, each
 * field's message a link to that field, and "Error: " before the page title while it shows.
 * It is focusable (tabindex -1) so the form can move focus to it: `autoFocus` when the server
 * rendered it, `focusErrorSummary` after a submit in the browser.
 */
export function ErrorSummary({ errors, texts, reload, autoFocus = false }: ErrorSummaryProps) {
  const entries = Object.entries(errors).filter(([name, text]) => name !== "conflict" && text);
  const shown = entries.length > 0;
  useErrorTitle(shown, texts.titlePrefix);
  if (!shown) return null;
  const whole = entries.filter(([name]) => NOT_FIELDS.has(name));
  const fields = entries.filter(([name]) => !NOT_FIELDS.has(name));
  return (
    <div
      data-error-summary=""
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: GOV.UK pattern, focus goes to the summary after a failed post
      autoFocus={autoFocus}
      className={classes.box}
    >
      <div role="alert">
        <h2 className={classes.title}>{texts.title}</h2>
        {whole.map(([name, text]) => (
          <p key={name} className={classes.message}>
            {text}
          </p>
        ))}
        {reload && errors.conflict && (
          <p className="mt-2">
            <a href={reload.href} className="font-semibold underline">
              {reload.text ?? errors.conflict}
            </a>
          </p>
        )}
        {fields.length > 0 && (
          <ul className={classes.list}>
            {fields.map(([name, text]) => (
              <li key={name}>
                <FieldLink name={name} text={text} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** "Error: " before the document's title while a form shows errors (the server adds it on its own render). */
function useErrorTitle(shown: boolean, prefix: string) {
  useEffect(() => {
    if (!shown || !prefix) return;
    if (!document.title.startsWith(prefix)) document.title = `${prefix}${document.title}`;
    return () => {
      if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);
    };
  }, [shown, prefix]);
}

/** Moves focus to the form's error summary (after a submit the browser or the server refused). */
export function focusErrorSummary(container: ParentNode | null): boolean {
  const summary = container?.querySelector<HTMLElement>("[data-error-summary]");
  summary?.focus();
  return Boolean(summary);
}
