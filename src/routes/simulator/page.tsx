import { Island } from "@/islands/runtime/island";
import { demoRadios, demoSecretOf } from "@/schema/fleet/demo-radios";
import { formatDateTime } from "@/schema/format";
import { isDemo } from "@/server/env";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field, SelectField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { PageHeader } from "@/ui/page-header";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { memoryFrom } from "./answer-commands";
import { FirmwarePanel, FirmwareScreenLines } from "./firmware-panel";
import { FAIL_STAGES, type FailStage, FIRMWARE_STEPS, firmwareMemoryFrom, START_FIRMWARE } from "./radio-firmware";
import { type RadioDisplay, type SimulatorStep, simulate } from "./radio-session";

const steps: SimulatorStep[] = ["check-in", "accept", "fail", "reject", "delay", "accept-redirect", ...FIRMWARE_STEPS];
/** What the radio may answer to a deployment it is offered. */
const deploymentSteps: SimulatorStep[] = ["accept", "fail", "reject", "delay"];
const UID = /^[A-Za-z0-9._-]{1,64}$/;

type Data = { demo: boolean };

function namesOf(settings: unknown, list: "channels" | "contacts"): string[] {
  const items = (settings as Record<string, unknown> | null)?.[list];
  return Array.isArray(items) ? items.map((item) => String((item as { name?: unknown }).name ?? "")).filter(Boolean) : [];
}

function Screen({ display }: { display: RadioDisplay }) {
  const { t } = usePage();
  const check = display.checkIn;
  const config = display.config;
  const wifi = Array.isArray(config?.network?.wifi) ? (config.network.wifi as { ssid?: string }[]).map((w) => w.ssid ?? "") : [];
  const channels = namesOf(config?.profiles?.channels?.settings ?? null, "channels");
  const contacts = namesOf(config?.profiles?.contacts?.settings ?? null, "contacts");
  const deployment = check?.deployment;
  const runningIsDesired = Boolean(check?.desiredRevision && display.running === check.desiredRevision.id);
  return (
    <section
      aria-labelledby="screen-heading"
      className="rounded-2xl border-4 border-slate-800 bg-slate-900 p-4 font-mono text-sm text-green-200 shadow-lg"
      data-testid="radio-screen"
    >
      <h2 id="screen-heading" className="mb-2 text-base font-bold text-green-100">
        {display.uid}
      </h2>
      {display.memory?.stunned && (
        <p className="mb-2 rounded bg-red-700 px-2 py-1 font-bold text-white" data-testid="radio-stunned">
          {t("simulator.stunned")}
        </p>
      )}
      <p data-testid="radio-revision">
        {check?.desiredRevision
          ? t(runningIsDesired ? "simulator.runningRevision" : "simulator.desiredRevision", {
              number: check.desiredRevision.number,
            })
          : t("simulator.noRevision")}
      </p>
      {deployment && (
        <p data-testid="radio-deployment">
          {t("simulator.deploymentState", { number: deployment.number, state: deployment.state, yours: deployment.yourState })}
        </p>
      )}
      <dl className="mt-2 space-y-1">
        <div>
          <dt className="inline text-green-400">{t("simulator.channels")}: </dt>
          <dd className="inline" data-testid="radio-channels">
            {channels.join(", ") || "—"}
          </dd>
        </div>
        <div>
          <dt className="inline text-green-400">{t("simulator.contacts")}: </dt>
          <dd className="inline">{contacts.join(", ") || "—"}</dd>
        </div>
        <div>
          <dt className="inline text-green-400">{t("simulator.wifi")}: </dt>
          <dd className="inline">{wifi.join(", ") || "—"}</dd>
        </div>
        <div>
          <dt className="inline text-green-400">{t("simulator.messages")}: </dt>
          <dd className="inline" data-testid="radio-messages">
            {display.memory?.messages.length
              ? display.memory.messages.map((text, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: display lines have no identity; the same text may repeat
                  <span key={`${i + 1}-${text}`} className="block text-green-100">
                    ✉ {text}
                  </span>
                ))
              : t("simulator.noMessages")}
          </dd>
        </div>
        <div>
          <dt className="inline text-green-400">{t("simulator.commands")}: </dt>
          <dd className="inline" data-testid="radio-commands">
            {display.memory?.answered.length
              ? display.memory.answered.map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: display lines have no identity; the same command type may repeat
                  <span key={`${i + 1}-${a.type}`} className="block">
                    {a.beep
                      ? t("simulator.beep", {
                          seconds: a.beep.seconds,
                          latitude: a.beep.latitude.toFixed(5),
                          longitude: a.beep.longitude.toFixed(5),
                        })
                      : t("simulator.answered", { type: t(`commands.types.${a.type}`), state: t(`commands.states.${a.state}`) })}
                  </span>
                ))
              : t("simulator.noCommands")}
          </dd>
        </div>
        <FirmwareScreenLines display={display} />
        {check?.redirect && (
          <div>
            <dt className="inline text-green-400">{t("simulator.redirect")}: </dt>
            <dd className="inline" data-testid="radio-redirect">
              {check.redirect.url}
            </dd>
          </div>
        )}
      </dl>
      <p className="mt-2 text-xs text-green-500">{t("simulator.nextPoll", { seconds: check?.pollSeconds ?? 0 })}</p>
    </section>
  );
}

function Simulator({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const values = form?.values ?? {};
  let display: RadioDisplay | null = null;
  try {
    display = values.display ? (JSON.parse(values.display) as RadioDisplay) : null;
  } catch {
    display = null;
  }
  const error = form?.errors.form
    ? String(t(form.errors.form))
    : display?.error
      ? String(t("simulator.refused", { status: display.status }))
      : undefined;
  const signedIn = display && display.status === 200;
  const deployment = display?.checkIn?.deployment;
  const offer =
    deployment &&
    !["applied", "failed", "rejected", "already_in_sync"].includes(deployment.yourState) &&
    display?.running !== deployment.revision.id;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader title={String(t("routes.simulator"))} description={t("simulator.lead")} />
      <FormAlert message={error} />
      <form method="post" action="/simulator" className="space-y-4" id="simulator-form">
        {!signedIn && (
          <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
            {data.demo && (
              <SelectField
                label={String(t("simulator.demoRadio"))}
                name="demo"
                defaultValue={values.demo ?? ""}
                options={[
                  { value: "", label: String(t("simulator.ownRadio")) },
                  ...demoRadios.map((uid) => ({ value: uid, label: uid })),
                ]}
                className="sm:col-span-2"
              />
            )}
            <Field
              label={String(t("simulator.uid"))}
              name="uid"
              defaultValue={values.uid ?? ""}
              autoComplete="off"
              maxLength={64}
            />
            <Field
              label={String(t("simulator.secret"))}
              name="secret"
              type="password"
              defaultValue=""
              autoComplete="off"
              maxLength={256}
            />
          </div>
        )}
        {signedIn && display && (
          <>
            <input type="hidden" name="uid" value={display.uid} />
            <input type="hidden" name="secret" value={values.secret ?? ""} />
            <input type="hidden" name="running" value={display.running} />
            <input type="hidden" name="deploymentId" value={deployment?.id ?? ""} />
            <input type="hidden" name="stunned" value={display.memory?.stunned ? "1" : ""} />
            <input type="hidden" name="firmware" value={display.firmware?.running ?? START_FIRMWARE} />
            <input type="hidden" name="fwDeploymentId" value={display.firmware?.deploymentId ?? ""} />
            <input type="hidden" name="fwHave" value={String(display.firmware?.have ?? 0)} />
            <input type="hidden" name="fwEtag" value={display.firmware?.etag ?? ""} />
            <input type="hidden" name="fwStage" value={display.firmware?.stage ?? ""} />
            <input
              type="hidden"
              name="memory"
              value={JSON.stringify({ messages: display.memory?.messages ?? [], answered: display.memory?.answered ?? [] })}
            />
            <Screen display={display} />
            {display.checkIn?.redirect && (
              <Button type="submit" name="step" value="accept-redirect" size="sm" variant="primary">
                {t("simulator.acceptRedirect")}
              </Button>
            )}
            {offer && deployment && (
              <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="radio-offer">
                <p className="mb-2 text-sm">
                  {t("simulator.offer", { number: deployment.revision.number })}{" "}
                  {deployment.switchover.mode === "user-delay"
                    ? t("simulator.mayDelay", { minutes: deployment.switchover.maxMinutes ?? 0 })
                    : deployment.switchover.mode === "at"
                      ? t("simulator.switchAt", {
                          // The radio receives UTC over the protocol: shown readably, naming UTC.
                          time: deployment.switchover.at ? formatDateTime(language, deployment.switchover.at, "UTC") : "",
                        })
                      : ""}
                </p>
                <div className="flex flex-wrap gap-2">
                  {deploymentSteps.map((step) => (
                    <Button
                      key={step}
                      type="submit"
                      name="step"
                      value={step}
                      size="sm"
                      variant={step === "accept" ? "primary" : step === "delay" ? "white" : "danger"}
                    >
                      {t(`simulator.steps.${step}`)}
                    </Button>
                  ))}
                </div>
              </div>
            )}
            <FirmwarePanel display={display} />
          </>
        )}
        <Button type="submit" name="step" value="check-in" variant={signedIn ? "white" : "primary"}>
          {t(signedIn ? "simulator.checkInAgain" : "simulator.start")}
        </Button>
      </form>
      {signedIn && display && (
        <div className="mt-4">
          <Island name="simulator-live" props={{ uid: display.uid, secret: values.secret ?? "", formId: "simulator-form" }} />
          <details className="mt-2 text-xs text-slate-600">
            <summary>{t("simulator.log")}</summary>
            <ol className="font-mono">
              {display.log
                .map((line, i) => ({ line, n: i + 1 }))
                .map((entry) => (
                  <li key={entry.n}>{entry.line}</li>
                ))}
            </ol>
          </details>
        </div>
      )}
    </div>
  );
}

async function step(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  const demo = isDemo(c.env) && (demoRadios as readonly string[]).includes(posted.demo ?? "") ? (posted.demo ?? "") : "";
  const uid = demo || (posted.uid ?? "").trim();
  const secret = demo ? demoSecretOf(demo) : (posted.secret ?? "");
  const chosen = steps.includes(posted.step as SimulatorStep) ? (posted.step as SimulatorStep) : "check-in";
  if (!UID.test(uid) || !secret || secret.length > 256) {
    return { ok: false, status: 400, form: { values: { uid }, errors: { form: "simulator.needCredentials" } } };
  }
  const display = await simulate(c, {
    uid,
    secret,
    running: (posted.running ?? "").slice(0, 64),
    step: chosen,
    deploymentId: (posted.deploymentId ?? "").slice(0, 64),
    memory: memoryFrom({ stunned: posted.stunned, memory: (posted.memory ?? "").slice(0, 8000) }),
    firmware: firmwareMemoryFrom(posted),
    failStage: (FAIL_STAGES as readonly string[]).includes(posted.failStage ?? "") ? (posted.failStage as FailStage) : "download",
  });
  return {
    ok: false,
    status: display.status === 200 ? 200 : 401,
    form: { values: { uid, secret, display: JSON.stringify(display) }, errors: {} },
  };
}

/** /simulator (public): a radio in the browser that speaks the device protocol. */
export const simulatorPage = definePage<Data>({
  load: async (c) => ({ demo: isDemo(c.env) }),
  Component: Simulator,
  action: step,
});
