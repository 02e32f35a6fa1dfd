import { emailProblem, type Provider, type SignInErrors, type SignInStep, signInSteps } from "@/schema/sign-in";
import { SignInForm } from "@/ui/sign-in/sign-in-form";
import { endSession } from "../server/auth/sessions";
import { emailStep, passwordStep, sendEmailCode, Throttled, verifyEmailCode } from "../server/auth/sign-in";
import type { Flash } from "../server/render/flash";
import { usePage } from "../server/render/page-context";
import { localPath } from "../server/safe-redirect";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

type Data = { next: string; action: string };

const signedInFlash: Flash = { type: "success", key: "signIn.signedIn" };

/**
 * Where to go after signing in: ?next= on /sign-in, or the protected page itself when the
 * sign-in form is shown there (pages.tsx, 401). Only a path on this site, never /sign-in.
 */
export function nextTarget(c: RouteContext): string {
  const url = new URL(c.req.url);
  const wanted = url.pathname === "/sign-in" ? url.searchParams.get("next") : url.pathname + url.search;
  let next = localPath(wanted ?? "/");
  // The header's "Sign in" link on this very page wraps the target once more: unwrap it.
  const inner = new URL(next, url);
  if (inner.pathname === "/sign-in") next = localPath(inner.searchParams.get("next") ?? "/");
  return new URL(next, url).pathname === "/sign-in" ? "/" : next;
}

type Shown = { step: SignInStep; email?: string; sso?: Provider; errors?: SignInErrors };

/**
 * The page again at `step`. The server keeps the step: it travels in the form state, so a
 * step reached without an error is a re-render with 200.
 */
function show(status: 200 | 400 | 401 | 429, { step, email = "", sso, errors = {} }: Shown): ActionResult {
  const values: Record<string, string> = { step, email };
  if (sso) Object.assign(values, { ssoId: sso.id, ssoName: sso.name });
  return { ok: false, status, form: { values, errors } };
}

async function afterEmail(c: RouteContext, email: string): Promise<ActionResult> {
  const problem = emailProblem(email);
  if (problem) return show(400, { step: "email", email, errors: { email: problem } });
  const answer = await emailStep(c, email);
  if (!answer.ok) return show(400, { step: "email", email, errors: { email: "signIn.Generic" } });
  if (answer.identityProviderId) {
    const sso = { id: answer.identityProviderId, name: answer.identityProviderName ?? answer.identityProviderId };
    return show(200, { step: "sso", email, sso });
  }
  return show(200, { step: "password", email });
}

async function afterPassword(c: RouteContext, email: string, password: string, next: string): Promise<ActionResult> {
  const problem = emailProblem(email);
  if (problem) return show(400, { step: "email", email, errors: { email: problem } });
  if (!password) return show(400, { step: "password", email, errors: { password: "validation.PasswordRequired" } });
  // passwordStep sets the session cookie itself: signed in, or an attempt awaiting its code.
  const answer = await passwordStep(c, email, password);
  if (answer.blocked) return show(401, { step: "password", email, errors: { password: "signIn.Blocked" } });
  if (!answer.ok) return show(401, { step: "password", email, errors: { password: "signIn.Generic" } });
  if (answer.twoFactorAuth?.required) return show(200, { step: "need-2fa", email });
  return { ok: true, redirect: next, flash: signedInFlash };
}

async function afterSendCode(c: RouteContext, email: string): Promise<ActionResult> {
  if ((await sendEmailCode(c)).ok) return show(200, { step: "need-otp", email });
  // No attempt waiting for a code any more (it expired): start again.
  return show(401, { step: "email", email, errors: { form: "signIn.Generic" } });
}

async function afterVerify(c: RouteContext, email: string, otp: string, next: string): Promise<ActionResult> {
  const answer = otp.trim() ? await verifyEmailCode(c, otp) : { ok: false };
  if (!answer.ok) return show(400, { step: "need-otp", email, errors: { otp: "signIn.BadOTP" } });
  return { ok: true, redirect: next, flash: signedInFlash };
}

const tooMany = "signIn.TooManyAttempts";

/** A throttled step (429) says "too many attempts" where the user acted. */
function throttled(step: string, email: string): ActionResult {
  if (step === "password") return show(429, { step: "password", email, errors: { password: tooMany } });
  if (step === "send-code") return show(429, { step: "need-2fa", email, errors: { form: tooMany } });
  if (step === "verify-code") return show(429, { step: "need-otp", email, errors: { otp: tooMany } });
  return show(429, { step: "email", email, errors: { email: tooMany } });
}

/**
 * The sign-in form without JavaScript: every step posts here with a hidden `step` field and
 * the server answers with the next step, or a redirect to `next` once signed in.
 */
async function signInAction(c: RouteContext): Promise<ActionResult> {
  const next = nextTarget(c);
  const body = await c.req.parseBody();
  const text = (name: string) => {
    const value = body[name];
    return typeof value === "string" ? value : "";
  };
  const step = text("step");
  const email = text("email").trim();
  try {
    if (step === "email") return await afterEmail(c, email);
    if (step === "password") return await afterPassword(c, email, text("password"), next);
    if (step === "send-code") return await afterSendCode(c, email);
    if (step === "verify-code") return await afterVerify(c, email, text("otp"), next);
  } catch (error) {
    if (error instanceof Throttled) return throttled(step, email);
    throw error;
  }
  // "change" (or anything unknown): an empty email step; an attempt waiting for its code ends.
  const session = c.get("session");
  if (session?.record.stage === "needs-2fa") await endSession(c, session);
  return show(200, { step: "email" });
}

function SignIn({ data, form }: PageProps<Data>) {
  const { t, settings } = usePage();
  const values = form?.values ?? {};
  const step = signInSteps.find((s) => s === values.step) ?? "email";
  const sso = values.ssoId ? { id: values.ssoId, name: values.ssoName ?? values.ssoId } : null;
  return (
    <section className="mx-auto w-full max-w-md py-6 sm:py-10">
      <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">
          {t("signIn.heading", { title: settings.appTitle })}
        </h1>
        <SignInForm
          action={data.action}
          next={data.next}
          step={step}
          email={values.email ?? ""}
          sso={sso}
          errors={form?.errors ?? {}}
        />
      </div>
    </section>
  );
}

/** The sign-in screen (spec §2, §4): also shown in place of any signed-in route to a signed-out visitor. */
export const signInPage = definePage<Data>({
  load: async (c) => {
    const next = nextTarget(c);
    if (c.get("user")) return c.redirect(next, 302);
    return { next, action: `/sign-in?next=${encodeURIComponent(next)}` };
  },
  Component: SignIn,
  action: signInAction,
});
