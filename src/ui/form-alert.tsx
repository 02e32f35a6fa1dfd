/**
 * A message about a whole form (not one field), announced at once; it may offer a way out,
 * such as reloading the current version after a stale save.
 */
export function FormAlert({ message, link }: { message?: string; link?: { href: string; text: string } }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
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
