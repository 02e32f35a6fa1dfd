import { type ComponentProps, type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Button, ButtonLink } from "../ui/button";
import { ErrorSummary, focusErrorSummary } from "../ui/error-summary";
import { controlClass, useFieldId } from "../ui/field";
import { PasskeySignIn } from "./passkey-sign-in";
import { FetchError, postJson } from "./runtime/fetch-json";
import { type Messages, translate } from "./runtime/messages";
import { summaryTexts } from "./runtime/use-form";

/** The sign-in states of spec §4 ("signed in" leaves the page). */
export type SignInStep = "email" | "password" | "sso" | "need-2fa" | "need-otp";
export type Provider = { id: string; name: string };
/** Field ("email", "password", "otp", or "form" for the whole step) → translation key. */
export type SignInErrors = Record<string, string>;

export type SignInProps = {
  messages: Messages;
  /** Where each step's plain form posts (/sign-in?next=…), so every step works without JavaScript. */
  action: string;
  /** Where to go once signed in: a local path, already checked by the server. */
  next: string;
  /** The default identity provider, always offered. */
  provider: Provider;
  /** The state the server rendered: a form posted without JavaScript comes back at a later step. */
  step?: SignInStep;
  email?: string;
  sso?: Provider | null;
  errors?: SignInErrors;
  /** Called instead of navigating to `next` when another island embeds the form. */
  onSignedIn?: () => void;
  /** The passkey feature flag (spec §6); the browser decides the rest. */
  passkeys?: boolean;
};

type EmailAnswer = { ok: boolean; identityProviderId?: string; identityProviderName?: string };
type PasswordAnswer = { ok: boolean; blocked?: boolean; twoFactorAuth?: { required?: boolean } };

/** Spec §5: required, and like name@example.com with no spaces. The form action uses it too. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  if (!email) return "validation.EmailRequired";
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return "validation.EmailInvalid";
  return undefined;
}

const emailRule = (email: string): SignInErrors => {
  const problem = emailProblem(email);
  return problem ? { email: problem } : {};
};
const passwordRule = (password: string): SignInErrors => (password ? {} : { password: "validation.PasswordRequired" });

/** A labelled input whose error is tied to it by aria-describedby (the summary above links here). */
function TextField({ label, error, ...input }: ComponentProps<"input"> & { label: string; name: string; error?: string }) {
  const id = useFieldId(input.name);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}e` : undefined}
        className={controlClass(error)}
        {...input}
      />
      {error && (
        <p id={`${id}e`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The sign-in form (spec §4): email, then single sign-on or password, then the email code when
 * the account asks for one. Rendered by the server at any step as plain forms that post to the
 * page; with JavaScript each step calls the JSON API of spec §7 instead, without a reload.
 */
export default function SignIn(props: SignInProps) {
  const { messages, action, next, provider } = props;
  const t = (key: string, values?: Record<string, string>) => translate(messages, key, values);
  const [step, setStep] = useState<SignInStep>(props.step ?? "email");
  const [email, setEmail] = useState(props.email ?? "");
  const [sso, setSso] = useState(props.sso ?? null);
  const [errors, setErrors] = useState<SignInErrors>(props.errors ?? {});
  const [pending, setPending] = useState(false);
  const [redirecting, setRedirecting] = useState("");
  const submitted = useRef(false);
  const moved = useRef(false);
  const first = useRef<HTMLElement | null>(null);
  const root = useRef<HTMLDivElement>(null);
  // The server rendered these errors (a post without JavaScript): the summary has the focus.
  const [fromServer, setFromServer] = useState(Object.keys(props.errors ?? {}).length > 0);

  // Each step's first field (or heading) takes focus when the step appears, not on page load.
  const focusOnArrival = useCallback((element: HTMLElement | null) => {
    first.current = element;
    if (element && moved.current) element.focus();
  }, []);

  /** Shows the step's messages in the error summary, which takes the focus (GOV.UK). */
  function fail(found: SignInErrors) {
    flushSync(() => {
      setFromServer(false);
      setErrors(found);
    });
    if (!focusErrorSummary(root.current)) first.current?.focus();
  }

  // Coming back with the Back button (page cache) must not leave "Redirecting…" behind.
  useEffect(() => {
    const reset = () => setRedirecting("");
    addEventListener("pageshow", reset);
    return () => removeEventListener("pageshow", reset);
  }, []);

  function go(to: SignInStep) {
    moved.current = true;
    submitted.current = false;
    setErrors({});
    setStep(to);
  }

  /** Submit first, then every change (spec §5); false when the step has errors. */
  function validated(event: FormEvent<HTMLFormElement>, found: SignInErrors): boolean {
    event.preventDefault();
    if (pending) return false;
    submitted.current = true;
    if (Object.keys(found).length === 0) return true;
    fail(found);
    return false;
  }

  /**
   * Runs a step's call with a pending state. A refused call (non-ok status) shows `refusedKey`
   * (or "too many attempts") on `field`; an unreachable server says so there, or in a browser
   * alert for the code calls (spec §8). `call` answers true while the browser navigates away.
   */
  async function attempt(field: string, call: () => Promise<unknown>, refusedKey = "signIn.Generic", alertOffline = false) {
    setPending(true);
    setErrors({});
    try {
      if ((await call()) === true) return;
    } catch (error) {
      if (error instanceof FetchError) fail({ [field]: error.status === 429 ? "signIn.TooManyAttempts" : refusedKey });
      else if (alertOffline) window.alert(t("signIn.NetworkError"));
      else fail({ [field]: "signIn.NetworkError" });
    }
    setPending(false);
  }

  function signedIn(): true {
    if (props.onSignedIn) props.onSignedIn();
    else location.assign(next);
    return true;
  }

  function onEmail(event: FormEvent<HTMLFormElement>) {
    // Read from the form, not from state: text typed before hydration is in the field only.
    const typed = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!validated(event, emailRule(typed))) return;
    attempt("email", async () => {
      const answer = await postJson<EmailAnswer>("/api/sign-in", { username: typed });
      setEmail(typed);
      if (!answer.ok) fail({ email: "signIn.Generic" });
      else if (answer.identityProviderId) {
        setSso({ id: answer.identityProviderId, name: answer.identityProviderName ?? answer.identityProviderId });
        go("sso");
      } else go("password");
    });
  }

  function onPassword(event: FormEvent<HTMLFormElement>) {
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    if (!validated(event, passwordRule(password))) return;
    attempt("password", async () => {
      const answer = await postJson<PasswordAnswer>("/api/sign-in", { username: email, password });
      if (answer.blocked) fail({ password: "signIn.Blocked" });
      else if (!answer.ok) fail({ password: "signIn.Generic" });
      else if (answer.twoFactorAuth?.required) go("need-2fa");
      else return signedIn();
    });
  }

  function onSendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    attempt(
      "form",
      async () => {
        const answer = await postJson<{ ok: boolean }>("/api/auth/2fa/email/send");
        if (answer.ok) go("need-otp");
        else fail({ form: "signIn.Generic" });
      },
      "signIn.Generic",
      true,
    );
  }

  function onVerify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    // The code has no client rule (spec §5): the server judges it.
    const otp = String(new FormData(event.currentTarget).get("otp") ?? "").trim();
    attempt(
      "otp",
      async () => {
        const answer = await postJson<{ ok: boolean }>("/api/auth/2fa/email/verify", { otp });
        if (answer.ok) return signedIn();
        fail({ otp: "signIn.BadOTP" });
      },
      "signIn.BadOTP",
      true,
    );
  }

  function onChangeEmail(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setEmail("");
    setSso(null);
    go("email");
  }

  /** One step's plain form: it names its step for the server, and carries the email after the first. */
  const stepForm = (name: string, onSubmit: (event: FormEvent<HTMLFormElement>) => void, children: ReactNode) => (
    <form method="post" action={action} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <input type="hidden" name="step" value={name} />
      {step !== "email" && <input type="hidden" name="email" value={email} />}
      {children}
    </form>
  );

  const providerLink = (which: string, { id }: Provider, label: string) => (
    <ButtonLink
      // The provider's round trip keeps where to go once signed in.
      href={`/api/auth/signin/${encodeURIComponent(id)}${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`}
      variant="white"
      aria-busy={redirecting === which || undefined}
      onClick={(event) => {
        if (!(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)) setRedirecting(which);
      }}
    >
      {redirecting === which ? t("signIn.redirecting") : label}
    </ButtonLink>
  );

  const heading = (key: string) => (
    <h2 ref={focusOnArrival} tabIndex={-1} className="text-lg font-semibold text-slate-900">
      {t(key)}
    </h2>
  );

  const shownErrors = Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, t(key)]));

  return (
    <div ref={root} className="flex flex-col gap-5">
      {step !== "email" && (
        <form
          method="post"
          action={action}
          onSubmit={onChangeEmail}
          className="flex items-center gap-3 rounded-md bg-slate-50 px-3 py-2 text-sm"
        >
          <input type="hidden" name="step" value="change" />
          <p className="min-w-0 flex-1">
            <span className="block text-slate-600">{t("signIn.signingInAs")}</span>
            <span className="block truncate font-medium text-slate-900">{email}</span>
          </p>
          <Button type="submit" variant="white" size="sm">
            {t("signIn.change")}
          </Button>
        </form>
      )}
      <ErrorSummary errors={shownErrors} texts={summaryTexts(messages)} autoFocus={fromServer} />

      {step === "email" &&
        stepForm(
          "email",
          onEmail,
          <>
            <TextField
              ref={focusOnArrival}
              label={t("signIn.email")}
              name="email"
              type="email"
              // "webauthn": the browser may offer passkeys in this field's autofill.
              autoComplete={props.passkeys ? "username webauthn" : "username"}
              required
              defaultValue={email}
              onChange={(event) => {
                if (submitted.current) setErrors(emailRule(event.target.value));
              }}
              error={errors.email && t(errors.email)}
            />
            <Button type="submit" pending={pending}>
              {t("signIn.continue")}
            </Button>
          </>,
        )}

      {step === "password" &&
        stepForm(
          "password",
          onPassword,
          <>
            <TextField
              ref={focusOnArrival}
              label={t("signIn.password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              onChange={(event) => {
                if (submitted.current) setErrors(passwordRule(event.target.value));
              }}
              error={errors.password && t(errors.password)}
            />
            <a href="/forgot-password" className="self-start text-sm font-medium text-brand-700 underline">
              {t("signIn.forgotPassword")}
            </a>
            <Button type="submit" pending={pending}>
              {t("signIn.submit")}
            </Button>
          </>,
        )}

      {step === "sso" && sso && (
        <>
          {heading("signIn.ssoHeading")}
          <p className="text-sm text-slate-700">{t("signIn.ssoIntro", { provider: sso.name })}</p>
          {providerLink("sso", sso, t("signIn.ssoButton", { provider: sso.name }))}
        </>
      )}

      {step === "need-2fa" && (
        <>
          {heading("signIn.twoFactorHeading")}
          <p className="text-sm text-slate-700">{t("signIn.twoFactorIntro", { email })}</p>
          {stepForm(
            "send-code",
            onSendCode,
            <Button type="submit" pending={pending}>
              {t("signIn.sendCode")}
            </Button>,
          )}
        </>
      )}

      {step === "need-otp" && (
        <>
          {stepForm(
            "verify-code",
            onVerify,
            <>
              <p className="text-sm text-slate-700">{t("signIn.codeHint", { email })}</p>
              <TextField
                ref={focusOnArrival}
                label={t("signIn.code")}
                name="otp"
                inputMode="numeric"
                autoComplete="one-time-code"
                error={errors.otp && t(errors.otp)}
              />
              <Button type="submit" pending={pending}>
                {t("signIn.verify")}
              </Button>
            </>,
          )}
          {stepForm(
            "send-code",
            onSendCode,
            <Button type="submit" variant="white" pending={pending}>
              {t("signIn.resendCode")}
            </Button>,
          )}
        </>
      )}

      <p className="flex items-center gap-3 text-xs text-slate-500 uppercase">
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
        {t("signIn.or")}
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      </p>
      {providerLink("default", provider, t("signIn.providerButton", { provider: provider.name }))}
      <PasskeySignIn
        enabled={props.passkeys === true && (step === "email" || step === "password")}
        autofill={step === "email"}
        username={step === "password" ? email : undefined}
        label={t("signIn.passkeyButton")}
        onSignedIn={signedIn}
        onError={(key) => (key ? fail({ form: key }) : setErrors({}))}
      />
    </div>
  );
}
