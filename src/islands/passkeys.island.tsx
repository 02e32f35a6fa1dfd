import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { addPasskey, errorKey } from "./passkey-client";
import { type Messages, translate } from "./runtime/messages";

export type PasskeysProps = { messages: Messages };

/**
 * "Add a passkey" on /security. Creating a passkey needs the browser's WebAuthn API, so the
 * form appears only once this island runs (the page says so in a <noscript> otherwise); the
 * browser library loads on submit. Success reloads the list, whose flash toasts "added".
 */
export default function Passkeys({ messages }: PasskeysProps) {
  const t = (key: string) => translate(messages, key);
  // null until hydrated, so the server's HTML and the first render agree (both empty).
  const [supported, setSupported] = useState<boolean | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => setSupported(typeof window.PublicKeyCredential === "function"), []);

  if (supported === null) return null;
  if (!supported) return <p className="text-sm text-slate-700">{t("passkeys.error.notSupported")}</p>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setPending(true);
    setError("");
    try {
      await addPasskey(name);
      location.assign("/security");
      return; // stay busy while the page reloads
    } catch (caught) {
      setError(t(errorKey(caught)));
    }
    setPending(false);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field
          className="sm:flex-1"
          label={t("passkeys.newName")}
          name="name"
          maxLength={60}
          autoComplete="off"
          placeholder={t("passkeys.newNamePlaceholder")}
        />
        <Button type="submit" pending={pending}>
          {t("passkeys.add")}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
