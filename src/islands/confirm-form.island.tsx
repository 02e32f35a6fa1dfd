import { Button, type ButtonVariant } from "../ui/button";
import { type Messages, translate } from "./runtime/messages";
import { useEnhancedForm } from "./runtime/use-form";

export type ConfirmFormProps = {
  messages: Messages;
  /** Where the plain form posts (a page action that redirects with a flash). */
  action: string;
  /** The button's text, and more words for screen readers (which item it acts on). */
  label: string;
  srLabel?: string;
  variant?: ButtonVariant;
  /** Fields the action needs (e.g. the version the user saw). */
  hidden?: Record<string, string>;
  /** A refusal from a post without JavaScript, already translated. */
  error?: string;
};

/**
 * A one-button form (delete, unlink): a plain post that works without JavaScript; with it,
 * the post happens in the background, a refusal shows beside the button without a reload,
 * and success follows the server's redirect, whose flash becomes a toast.
 */
export default function ConfirmForm({
  messages,
  action,
  label,
  srLabel,
  variant = "danger",
  hidden = {},
  error,
}: ConfirmFormProps) {
  const form = useEnhancedForm({ networkErrorText: translate(messages, "identityForm.networkError") });
  const message = form.errors.form ?? error;
  return (
    <form method="post" action={action} onSubmit={form.onSubmit} className="flex flex-col items-start gap-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant={variant} size="sm" pending={form.pending}>
        {label}
        {srLabel && <span className="sr-only"> {srLabel}</span>}
      </Button>
      {message && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {message}
        </p>
      )}
    </form>
  );
}
