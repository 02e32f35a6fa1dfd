/**
 * The sign-in page's plain script (issue 10: no React on /sign-in). The server rendered the
 * current step as working forms and the others as <template>s (src/ui/sign-in/sign-in-form.tsx);
 * this calls the JSON API of spec §7 for each step instead of posting the page, swaps in the
 * next step, validates on submit and then on every change (spec §5), shows the error summary
 * that takes the focus (GOV.UK) and offers passkeys (spec §6).
 */
import { FetchError, postJson } from "@/islands/runtime/fetch-json";
import { translate } from "@/islands/runtime/messages";
import {
  emailProblem,
  passwordProblem,
  providerHref,
  type SignInConfig,
  type SignInErrors,
  type SignInStep,
} from "@/schema/sign-in";
import { startPasskeys } from "./sign-in-passkeys";

type EmailAnswer = { ok: boolean; identityProviderId?: string; identityProviderName?: string };
type PasswordAnswer = { ok: boolean; blocked?: boolean; twoFactorAuth?: { required?: boolean } };

/** The rule each field runs after the first submit; the code has none (the server judges it). */
const rules: Record<string, (value: string) => string | undefined> = { email: emailProblem, password: passwordProblem };

function enhance(root: HTMLElement) {
  const config = JSON.parse(root.dataset.config ?? "{}") as SignInConfig;
  const t = (key: string, values?: Record<string, string>) => translate(config.messages, key, values);
  const summaryClasses = config.classes.summary;
  const slot = (name: string) => root.querySelector<HTMLElement>(`[data-slot="${name}"]`) as HTMLElement;
  let { step, email, sso } = config;
  let submitted = false;
  let pending = false;

  const first = () => slot("step").querySelector<HTMLElement>("[data-first]");

  /** Each field's message under it, tied by aria-describedby; the summary above links to it. */
  function showFieldError(input: HTMLInputElement, text: string | undefined) {
    const errorId = `${input.id}e`;
    document.getElementById(errorId)?.remove();
    input.className = text ? config.classes.controlError : config.classes.control;
    if (!text) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      return;
    }
    const message = Object.assign(document.createElement("p"), { id: errorId, className: "text-sm font-medium text-red-700" });
    message.textContent = text;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", errorId);
    input.after(message);
  }

  /** The GOV.UK summary: a title, whole-form messages, and each field's message as a link to it. */
  function summary(found: [string, string][]): HTMLElement {
    const element = (tag: string, className = "", text = "") =>
      Object.assign(document.createElement(tag), { className, textContent: text });
    const box = element("div", summaryClasses.box);
    box.dataset.errorSummary = "";
    box.tabIndex = -1;
    const alert = element("div");
    alert.setAttribute("role", "alert");
    alert.append(element("h2", summaryClasses.title, t("errorSummary.title")));
    const list = element("ul", summaryClasses.list);
    for (const [field, text] of found) {
      if (field === "form") alert.append(element("p", summaryClasses.message, text));
      else {
        const item = document.createElement("li");
        item.append(Object.assign(element("a", summaryClasses.link, text), { href: `#field-${field}` }));
        list.append(item);
      }
    }
    if (list.childElementCount > 0) alert.append(list);
    box.append(alert);
    return box;
  }

  /** Shows exactly these errors (translation keys): fields, summary and the title's "Error: ". */
  function showErrors(errors: SignInErrors) {
    const found = Object.entries(errors)
      .filter(([, key]) => key)
      .map(([field, key]): [string, string] => [field, t(key)]);
    for (const input of slot("step").querySelectorAll<HTMLInputElement>("input[id^='field-']")) {
      showFieldError(input, found.find(([field]) => field === input.name)?.[1]);
    }
    slot("summary").replaceChildren(...(found.length > 0 ? [summary(found)] : []));
    const prefix = t("errorSummary.titlePrefix");
    const titled = document.title.startsWith(prefix);
    if (found.length > 0 && !titled) document.title = `${prefix}${document.title}`;
    if (found.length === 0 && titled) document.title = document.title.slice(prefix.length);
  }

  /** The step's messages in the error summary, which takes the focus. */
  function fail(errors: SignInErrors) {
    showErrors(errors);
    (slot("summary").querySelector<HTMLElement>("[data-error-summary]") ?? first())?.focus();
  }

  function setPending(on: boolean) {
    pending = on;
    for (const button of slot("step").querySelectorAll("button")) {
      for (const name of ["aria-busy", "aria-disabled"]) {
        if (on) button.setAttribute(name, "true");
        else button.removeAttribute(name);
      }
    }
  }

  const template = (name: string) =>
    (root.querySelector<HTMLTemplateElement>(`template[data-step="${name}"]`)?.content.cloneNode(true) as DocumentFragment) ??
    document.createDocumentFragment();

  /** The email and provider where the server's template left them blank. */
  function fill() {
    const values = { email, provider: sso?.name ?? "" };
    for (const input of root.querySelectorAll<HTMLInputElement>("[data-slot] input[type=hidden][name=email]"))
      input.value = email;
    for (const element of root.querySelectorAll<HTMLElement>("[data-slot] [data-fill=email]")) element.textContent = email;
    for (const element of root.querySelectorAll<HTMLElement>("[data-slot] [data-text]")) {
      element.textContent = t(element.dataset.text ?? "", values);
    }
    const link = slot("step").querySelector<HTMLAnchorElement>('[data-provider-link="sso"]');
    if (link && sso) {
      link.href = providerHref(sso.id, config.next);
      link.dataset.label = t("signIn.ssoButton", values);
      link.textContent = link.dataset.label;
    }
  }

  /** Another step: its template swapped in, filled, and its first field or heading focused. */
  function go(to: SignInStep) {
    step = to;
    submitted = false;
    slot("change").replaceChildren(to === "email" ? document.createDocumentFragment() : template("change"));
    slot("step").replaceChildren(template(to));
    fill();
    showErrors({});
    first()?.focus();
    passkeys.stepChanged();
  }

  function signedIn(): true {
    location.assign(config.next);
    return true; // stay pending while the browser navigates
  }

  /**
   * Runs a step's call with a pending state. A refused call (non-ok status) shows `refusedKey`
   * (or "too many attempts") on `field`; an unreachable server says so there, or in a browser
   * alert for the code calls (spec §8). `call` answers true while the browser navigates away.
   */
  async function attempt(field: string, call: () => Promise<unknown>, refusedKey = "signIn.Generic", alertOffline = false) {
    setPending(true);
    showErrors({});
    try {
      if ((await call()) === true) return;
    } catch (error) {
      if (error instanceof FetchError) fail({ [field]: error.status === 429 ? "signIn.TooManyAttempts" : refusedKey });
      else if (alertOffline) window.alert(t("signIn.NetworkError"));
      else fail({ [field]: "signIn.NetworkError" });
    }
    setPending(false);
  }

  /** Submit first, then every change (spec §5); false when the step has errors. */
  function validated(found: SignInErrors): boolean {
    submitted = true;
    if (Object.keys(found).length === 0) return true;
    fail(found);
    return false;
  }

  const onStep: Record<string, (form: FormData) => void> = {
    email(form) {
      // Read from the form: text typed before this script ran is in the field only.
      const typed = String(form.get("email") ?? "").trim();
      const problem = emailProblem(typed);
      if (!validated(problem ? { email: problem } : {})) return;
      void attempt("email", async () => {
        const answer = await postJson<EmailAnswer>("/api/sign-in", { username: typed });
        email = typed;
        if (!answer.ok) fail({ email: "signIn.Generic" });
        else if (answer.identityProviderId) {
          sso = { id: answer.identityProviderId, name: answer.identityProviderName ?? answer.identityProviderId };
          go("sso");
        } else go("password");
      });
    },
    password(form) {
      const password = String(form.get("password") ?? "");
      const problem = passwordProblem(password);
      if (!validated(problem ? { password: problem } : {})) return;
      void attempt("password", async () => {
        const answer = await postJson<PasswordAnswer>("/api/sign-in", { username: email, password });
        if (answer.blocked) fail({ password: "signIn.Blocked" });
        else if (!answer.ok) fail({ password: "signIn.Generic" });
        else if (answer.twoFactorAuth?.required) go("need-2fa");
        else return signedIn();
      });
    },
    "send-code"() {
      void attempt(
        "form",
        async () => {
          const answer = await postJson<{ ok: boolean }>("/api/auth/2fa/email/send");
          if (answer.ok) go("need-otp");
          else fail({ form: "signIn.Generic" });
        },
        "signIn.Generic",
        true,
      );
    },
    "verify-code"(form) {
      const otp = String(form.get("otp") ?? "").trim();
      void attempt(
        "otp",
        async () => {
          const answer = await postJson<{ ok: boolean }>("/api/auth/2fa/email/verify", { otp });
          if (answer.ok) return signedIn();
          fail({ otp: "signIn.BadOTP" });
        },
        "signIn.BadOTP",
        true,
      );
    },
    change() {
      email = "";
      sso = null;
      go("email");
    },
  };

  root.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const handler = onStep[String(new FormData(form).get("step"))];
    if (!handler) return; // not ours: let it post
    event.preventDefault();
    if (!pending) handler(new FormData(form));
  });

  // After the first submit the field's rule runs on every change.
  root.addEventListener("input", (event) => {
    const input = event.target;
    if (!submitted || !(input instanceof HTMLInputElement)) return;
    const rule = rules[input.name];
    if (!rule) return;
    const problem = rule(input.value);
    showErrors(problem ? { [input.name]: problem } : {});
  });

  root.addEventListener("click", (event) => {
    if (!(event.target instanceof Element)) return;
    // A summary link puts the focus in its field, its label kept in view (GOV.UK).
    const link = event.target.closest<HTMLAnchorElement>("[data-error-summary] a[href^='#field-']");
    const field = link && document.getElementById(link.hash.slice(1));
    if (field) {
      event.preventDefault();
      (field.parentElement ?? field).scrollIntoView({ block: "start" });
      field.focus({ preventScroll: true });
      return;
    }
    // An identity provider's button says "Redirecting…" while the browser leaves.
    const provider = event.target.closest<HTMLAnchorElement>("a[data-provider-link]");
    const plain = event instanceof MouseEvent && !(event.ctrlKey || event.metaKey || event.shiftKey || event.altKey);
    if (provider && plain) {
      provider.textContent = t("signIn.redirecting");
      provider.setAttribute("aria-busy", "true");
    }
  });

  // Coming back with the Back button (page cache) must not leave "Redirecting…" behind.
  addEventListener("pageshow", () => {
    for (const provider of root.querySelectorAll<HTMLAnchorElement>("a[data-provider-link]")) {
      provider.textContent = provider.dataset.label ?? provider.textContent;
      provider.removeAttribute("aria-busy");
    }
  });

  const passkeys = startPasskeys({
    button: root.querySelector<HTMLButtonElement>("button[data-passkey]"),
    enabled: config.passkeys,
    step: () => step,
    email: () => email,
    signedIn,
    fail: (key) => (key ? fail({ form: key }) : showErrors({})),
  });
  root.dataset.enhanced = "";
}

const root = document.querySelector<HTMLElement>("[data-sign-in]");
if (root) enhance(root);
