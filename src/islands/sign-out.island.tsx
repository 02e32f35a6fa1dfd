import { type FormEvent, useState } from "react";
import { Button } from "../ui/button";
import { type Messages, translate } from "./runtime/messages";
import { signOut } from "./runtime/sign-out";

export type SignOutProps = { messages: Messages };

/**
 * The header's sign-out: a plain form posting to /sign-out (works without JavaScript), which
 * this island turns into the spec's sequence (§4): POST /api/sign-out, refresh the current
 * user, then a full navigation to "/". Small on purpose, so the profile menu can take it over.
 */
export default function SignOut({ messages }: SignOutProps) {
  const [pending, setPending] = useState(false);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    void signOut();
  }
  return (
    <form method="post" action="/sign-out" onSubmit={onSubmit}>
      <Button type="submit" variant="white" size="sm" pending={pending}>
        {translate(messages, "header.signOut")}
      </Button>
    </form>
  );
}
