import type { ComponentProps, ReactNode } from "react";
import { passkeyMessageKeys } from "@/islands/passkey-client";
import {
  type Provider,
  providerHref,
  type SignInConfig,
  type SignInErrors,
  type SignInStep,
  signInMessageKeys,
  signInSteps,
} from "@/schema/sign-in";
import { pickMessages } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink, buttonClass } from "@/ui/button";
import { controlClass } from "@/ui/control-class";
import { ErrorSummary } from "@/ui/error-summary";
import { errorSummaryClasses } from "@/ui/error-summary-classes";

type Props = {
  /** Where each step's plain form posts (/sign-in?next=…), so every step works without JavaScript. */
  action: string;
  /** Where to go once signed in: a local path, already checked by the server. */
  next: string;
  /** The state to show: a form posted without JavaScript comes back at a later step. */
  step: SignInStep;
  email: string;
  sso: Provider | null;
  errors: SignInErrors;
};

type StepProps = { step: SignInStep; action: string; next: string; email: string; sso: Provider | null; errors: SignInErrors };

/**
 * The sign-in form (spec §4): email, then single sign-on or password, then the email code when
 * the account asks for one. The server renders the current step as plain forms that post to
 * the page, and every step once more, empty, inside a <template>; the plain script
 * (src/enhance/sign-in.ts) calls the JSON API of spec §7 instead and swaps in the next step's
 * template, filling the email and provider where `data-fill`, `data-text` and
 * `data-provider-link` say. No React in the browser.
 */
export function SignInForm({ action, next, step, email, sso, errors }: Props) {
  const { t, settings, assets, nonce } = usePage();
  const passkeys = settings.passkeysEnabled;
  const config: SignInConfig = {
    messages: pickMessages(t, [...signInMessageKeys, ...passkeyMessageKeys]),
    next,
    step,
    email,
    sso,
    passkeys,
    classes: { control: controlClass(), controlError: controlClass("error"), summary: errorSummaryClasses },
  };
  const shown = Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, String(t(key))]));
  const hasErrors = Object.keys(shown).length > 0;
  const shared = { action, next, email, sso, errors };
  return (
    <>
      <div data-sign-in="" data-form-script="sign-in" data-config={JSON.stringify(config)} className="flex flex-col gap-5">
        <div data-slot="change" className="contents">
          {step !== "email" && <ChangeEmail action={action} email={email} />}
        </div>
        <div data-slot="summary" className="contents">
          <ErrorSummary
            errors={shown}
            texts={{ title: String(t("errorSummary.title")), titlePrefix: String(t("errorSummary.titlePrefix")) }}
            autoFocus={hasErrors}
          />
        </div>
        <div data-slot="step" className="contents">
          <StepBody step={step} {...shared} />
        </div>
        <p className="flex items-center gap-3 text-xs text-slate-500 uppercase">
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
          {t("signIn.or")}
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
        </p>
        <ProviderLink
          which="default"
          href={providerHref(settings.defaultIdentityProvider.id, next)}
          label={String(t("signIn.providerButton", { provider: settings.defaultIdentityProvider.name }))}
        />
        {/* Shown by the script once the browser says it has a platform authenticator (spec §6). */}
        {passkeys && (
          <button type="button" data-passkey="" hidden className={buttonClass("white")}>
            {t("signIn.passkeyButton")}
          </button>
        )}
        {/* The other steps, inert until the script shows one (email and provider filled in then). */}
        <template data-step="change">
          <ChangeEmail action={action} email="" />
        </template>
        {signInSteps.map((other) => (
          <template key={other} data-step={other}>
            <StepBody step={other} action={action} next={next} email="" sso={null} errors={{}} />
          </template>
        ))}
      </div>
      {assets.signInScript.preloads.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      <script type="module" src={assets.signInScript.src} nonce={nonce} />
    </>
  );
}

/** "Signing in as …" with the button that goes back to an empty email step. */
function ChangeEmail({ action, email }: { action: string; email: string }) {
  const { t } = usePage();
  return (
    <form method="post" action={action} className="flex items-center gap-3 rounded-md bg-slate-50 px-3 py-2 text-sm">
      <input type="hidden" name="step" value="change" />
      <p className="min-w-0 flex-1">
        <span className="block text-slate-600">{t("signIn.signingInAs")}</span>
        <span data-fill="email" className="block truncate font-medium text-slate-900">
          {email}
        </span>
      </p>
      <Button type="submit" variant="white" size="sm">
        {t("signIn.change")}
      </Button>
    </form>
  );
}

/** One step's plain form: it names its step for the server, and carries the email after the first. */
function StepForm({ name, action, email, children }: { name: string; action: string; email?: string; children: ReactNode }) {
  return (
    <form method="post" action={action} noValidate className="flex flex-col gap-4">
      <input type="hidden" name="step" value={name} />
      {email !== undefined && <input type="hidden" name="email" value={email} />}
      {children}
    </form>
  );
}

/** A labelled input whose error is tied to it by aria-describedby (the summary above links here). */
function TextField({ label, error, ...input }: ComponentProps<"input"> & { label: string; name: string; error?: string }) {
  const id = `field-${input.name}`;
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

/** A provider's button; the script says "Redirecting…" on it once clicked (`data-label` is its own text). */
function ProviderLink({ which, href, label }: { which: string; href: string; label: string }) {
  return (
    <ButtonLink href={href} variant="white" data-provider-link={which} data-label={label}>
      {label}
    </ButtonLink>
  );
}

/** The step's own part of the form; `data-first` marks what takes the focus when the step appears. */
function StepBody({ step, action, next, email, sso, errors }: StepProps) {
  const { t, settings } = usePage();
  const error = (field: string) => (errors[field] ? String(t(errors[field])) : undefined);
  const heading = (key: string) => (
    <h2 data-first="" tabIndex={-1} className="text-lg font-semibold text-slate-900">
      {t(key)}
    </h2>
  );
  switch (step) {
    case "email":
      return (
        <StepForm name="email" action={action}>
          <TextField
            data-first=""
            label={String(t("signIn.email"))}
            name="email"
            type="email"
            // "webauthn": the browser may offer passkeys in this field's autofill.
            autoComplete={settings.passkeysEnabled ? "username webauthn" : "username"}
            required
            defaultValue={email}
            error={error("email")}
          />
          <Button type="submit">{t("signIn.continue")}</Button>
        </StepForm>
      );
    case "password":
      return (
        <StepForm name="password" action={action} email={email}>
          <TextField
            data-first=""
            label={String(t("signIn.password"))}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={error("password")}
          />
          <a href="/forgot-password" className="self-start text-sm font-medium text-brand-700 underline">
            {t("signIn.forgotPassword")}
          </a>
          <Button type="submit">{t("signIn.submit")}</Button>
        </StepForm>
      );
    case "sso":
      return (
        <>
          {heading("signIn.ssoHeading")}
          <p data-text="signIn.ssoIntro" className="text-sm text-slate-700">
            {t("signIn.ssoIntro", { provider: sso?.name ?? "" })}
          </p>
          <ProviderLink
            which="sso"
            href={sso ? providerHref(sso.id, next) : "/sign-in"}
            label={String(t("signIn.ssoButton", { provider: sso?.name ?? "" }))}
          />
        </>
      );
    case "need-2fa":
      return (
        <>
          {heading("signIn.twoFactorHeading")}
          <p data-text="signIn.twoFactorIntro" className="text-sm text-slate-700">
            {t("signIn.twoFactorIntro", { email })}
          </p>
          <StepForm name="send-code" action={action} email={email}>
            <Button type="submit">{t("signIn.sendCode")}</Button>
          </StepForm>
        </>
      );
    case "need-otp":
      return (
        <>
          <StepForm name="verify-code" action={action} email={email}>
            <p data-text="signIn.codeHint" className="text-sm text-slate-700">
              {t("signIn.codeHint", { email })}
            </p>
            <TextField
              data-first=""
              label={String(t("signIn.code"))}
              name="otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              error={error("otp")}
            />
            <Button type="submit">{t("signIn.verify")}</Button>
          </StepForm>
          <StepForm name="send-code" action={action} email={email}>
            <Button type="submit" variant="white">
              {t("signIn.resendCode")}
            </Button>
          </StepForm>
        </>
      );
  }
}
