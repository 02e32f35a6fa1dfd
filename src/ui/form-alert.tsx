/**
 * A message about a whole form (not one field), announced at once and given the focus as it
 * appears (GOV.UK: after a refused post, focus goes to what went wrong); it may offer a way
 * out, such as reloading the current version after a stale save.
 */
export function FormAlert({ message, link }: { message?: string; link?: { href: string; text: string } }) {
  if (!message) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: GOV.UK pattern, the refusal takes the focus when it appears
      autoFocus
      className="rounded-md border-2 border-red-700 bg-white px-4 py-3 text-sm text-slate-900 focus:outline-3 focus:outline-offset-2 focus:outline-brand-600"
    >
      <p>{message}</p>
      {link && (
        <p className="mt-2">
          <a href={link.href} className="font-semibold underline">
            {link.text}
          </a>
        </p>
      )}
    </div>
  );
}
