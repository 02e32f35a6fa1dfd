import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { indexForKey, isTypeAheadKey, TypeAhead, typeAheadIndex } from "./runtime/menu-keys";
import { type Messages, translate } from "./runtime/messages";
import { signOut } from "./runtime/sign-out";

export type ProfileMenuProps = {
  /** The signed-in username (email). Without one the menu offers Sign in instead of Sign out (spec §2). */
  user: string;
  name: string;
  /** The links the server allowed (spec §6); the label of each is `profileMenu.<id>`. */
  links: { id: string; href: string }[];
  messages: Messages;
};

type Item = { key: string; label: string; href?: string; onSelect?: () => void };

const faceClass =
  "flex cursor-pointer items-center gap-2 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 aria-expanded:bg-slate-100";
const panelClass = "absolute right-0 z-30 mt-1 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg";
const itemClass =
  "block w-full rounded px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100 focus:outline-none";

function Face({ user, name, messages }: Omit<ProfileMenuProps, "links">) {
  return (
    <>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 text-slate-500" fill="currentColor">
        <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
      </svg>
      <span className="sr-only">{translate(messages, "header.signedInAs")} </span>
      <span className="max-w-40 truncate">{name || user}</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 text-slate-500" fill="currentColor">
        <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
      </svg>
    </>
  );
}

function Identity({ user, name }: { user: string; name: string }) {
  return (
    <div className="mb-1 border-b border-slate-100 px-3 py-2 text-sm">
      <p className="truncate font-medium text-slate-900">{name || user}</p>
      {name && <p className="truncate text-xs text-slate-600">{user}</p>}
    </div>
  );
}

/** Without JavaScript (and on the server): a disclosure of links and a plain sign-out form. */
function DisclosureMenu({ user, name, links, messages }: ProfileMenuProps) {
  return (
    <details className="relative">
      <summary className={faceClass}>
        <Face user={user} name={name} messages={messages} />
      </summary>
      <div className={panelClass}>
        <Identity user={user} name={name} />
        <ul>
          {links.map((link) => (
            <li key={link.id}>
              <a href={link.href} className={itemClass}>
                {translate(messages, `profileMenu.${link.id}`)}
              </a>
            </li>
          ))}
          <li>
            {user ? (
              <form method="post" action="/sign-out">
                <button type="submit" className={itemClass}>
                  {translate(messages, "header.signOut")}
                </button>
              </form>
            ) : (
              <a href="/sign-in" className={itemClass}>
                {translate(messages, "header.signIn")}
              </a>
            )}
          </li>
        </ul>
      </div>
    </details>
  );
}

/** With JavaScript: the WAI-ARIA menu button pattern. */
function MenuButton({ user, name, links, messages }: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const focusOnOpen = useRef(0);
  const typeAhead = useRef(new TypeAhead());
  const id = useId();

  const items: Item[] = links.map((link) => ({
    key: link.id,
    label: translate(messages, `profileMenu.${link.id}`),
    href: link.href,
  }));
  if (user) {
    items.push({
      key: "signOut",
      label: translate(messages, "header.signOut"),
      onSelect: () => {
        if (signingOut) return;
        setSigningOut(true);
        void signOut(); // spec §4: post, refresh the current user, then go to /
      },
    });
  } else {
    items.push({ key: "signIn", label: translate(messages, "header.signIn"), href: "/sign-in" });
  }

  const focusItem = (index: number) => itemRefs.current[index]?.focus();

  useEffect(() => {
    if (open) itemRefs.current[focusOnOpen.current]?.focus();
  }, [open]);

  // A click anywhere outside closes the menu (focus stays where the click put it).
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function openAt(index: number) {
    if (open) return focusItem(index);
    focusOnOpen.current = index;
    setOpen(true);
  }

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openAt(event.key === "ArrowDown" ? 0 : items.length - 1);
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const current = itemRefs.current.indexOf(document.activeElement as HTMLElement);
    const next = indexForKey(event.key, current, items.length);
    if (next !== null) {
      event.preventDefault();
      focusItem(next);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Tab") {
      // Focus goes back to the button first, so the Tab moves on from there.
      close();
    } else if (event.key === " " && event.target instanceof HTMLAnchorElement) {
      event.preventDefault(); // links follow on Enter only; a menu item also on Space
      event.target.click();
    } else if (isTypeAheadKey(event)) {
      event.preventDefault();
      const typed = typeAhead.current.push(event.key, Date.now());
      const found = typeAheadIndex(
        items.map((item) => item.label),
        typed,
        current,
      );
      if (found !== null) focusItem(found);
    }
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        id={`${id}button`}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}menu`}
        className={faceClass}
        onClick={() => (open ? setOpen(false) : openAt(0))}
        onKeyDown={onButtonKeyDown}
      >
        <Face user={user} name={name} messages={messages} />
      </button>
      <div className={panelClass} hidden={!open}>
        <Identity user={user} name={name} />
        <div role="menu" id={`${id}menu`} aria-labelledby={`${id}button`} tabIndex={-1} onKeyDown={onMenuKeyDown}>
          {items.map((item, index) => {
            const ref = (element: HTMLElement | null) => {
              itemRefs.current[index] = element;
            };
            return item.href ? (
              <a key={item.key} ref={ref} role="menuitem" tabIndex={-1} href={item.href} className={itemClass}>
                {item.label}
              </a>
            ) : (
              <button
                key={item.key}
                ref={ref}
                role="menuitem"
                type="button"
                tabIndex={-1}
                aria-busy={item.key === "signOut" && signingOut ? true : undefined}
                onClick={item.onSelect}
                className={itemClass}
              >
                {item.label}
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * The header's profile menu (spec §2, §6). The server and the first render in the browser
 * show the disclosure that works without JavaScript, so hydration matches; once mounted it
 * becomes a keyboard-operable menu button.
 */
export default function ProfileMenu(props: ProfileMenuProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? <MenuButton {...props} /> : <DisclosureMenu {...props} />;
}
