import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { SelectField } from "@/ui/field";
import { FAIL_STAGES, type FirmwareStep, START_FIRMWARE } from "./radio-firmware";
import type { RadioDisplay } from "./radio-session";

/**
 * `yourState`s after which the radio does not act on the firmware deployment again (unless
 * offered a retry): the final states (docs/device-protocol.md).
 */
const FINAL = ["updated", "failed", "booted-old", "rejected", "already_in_sync"];

/** The update's own view of where it is: the steps that make sense next. */
function nextSteps(display: RadioDisplay): FirmwareStep[] {
  const offer = display.checkIn?.firmware;
  const memory = display.firmware;
  const fresh = !memory || memory.deploymentId !== offer?.deployment.id;
  const stage = fresh ? "" : memory.stage;
  const have = fresh ? 0 : memory.have;
  if (stage === "downloaded" || (offer && have >= offer.package.size && stage === "downloading")) return ["fw-verify"];
  if (stage === "verified") return ["fw-install"];
  if (stage === "installing") return ["fw-reboot", "fw-boot-old"];
  if (stage === "rebooting") return ["fw-reboot", "fw-boot-old"];
  return have > 0 ? ["fw-resume", "fw-download"] : ["fw-download", "fw-download-cut"];
}

/** A failure said with the stage it happened at (`failedAt`), in the page's language. */
function yourStateText(t: ReturnType<typeof usePage>["t"], state: string, failedAt: string | null | undefined): string {
  if (state === "failed" && failedAt && (FAIL_STAGES as readonly string[]).includes(failedAt))
    return String(t(`simulator.firmware.failedAt.${failedAt}`));
  if (state === "booted-old") return String(t("simulator.firmware.bootedOld"));
  return state;
}

/** The radio screen's firmware lines: what it runs, what it is offered, the stage and progress. */
export function FirmwareScreenLines({ display }: { display: RadioDisplay }) {
  const { t, language } = usePage();
  const offer = display.checkIn?.firmware;
  const memory = display.firmware;
  const mine = memory && offer && memory.deploymentId === offer.deployment.id;
  return (
    <>
      <div>
        <dt className="inline text-green-400">{t("simulator.firmware.running")}: </dt>
        <dd className="inline" data-testid="radio-firmware">
          {memory?.running ?? START_FIRMWARE}
        </dd>
      </div>
      {offer && (
        <div>
          <dt className="inline text-green-400">{t("simulator.firmware.offered")}: </dt>
          <dd className="inline" data-testid="radio-firmware-offer">
            {t("simulator.firmware.offer", {
              version: offer.package.version,
              number: offer.deployment.number,
              state: offer.deployment.state,
              yours: yourStateText(t, offer.yourState, offer.failedAt),
            })}
            {offer.progress !== null &&
              offer.progress !== undefined &&
              ` — ${t("simulator.firmware.progress", { progress: offer.progress })}`}
            {mine && memory.have > 0 && (
              <span className="block">
                {t("simulator.firmware.held", {
                  have: formatNumber(language, memory.have),
                  size: formatNumber(language, offer.package.size),
                })}
              </span>
            )}
          </dd>
        </div>
      )}
    </>
  );
}

/** The firmware update's buttons: the next steps, and failing at a chosen stage. Plain form buttons. */
export function FirmwarePanel({ display }: { display: RadioDisplay }) {
  const { t } = usePage();
  const offer = display.checkIn?.firmware;
  if (!offer?.package) return null;
  const runsIt = display.firmware?.running === offer.package.version;
  if ((FINAL.includes(offer.yourState) && !offer.retry) || runsIt) return null;
  return (
    <section
      aria-labelledby="firmware-heading"
      className="rounded-lg border border-sky-300 bg-sky-50 p-4"
      data-testid="radio-firmware-panel"
    >
      <h2 id="firmware-heading" className="mb-2 text-sm font-semibold">
        {t("simulator.firmware.heading", { version: offer.package.version })}
      </h2>
      <div className="flex flex-wrap gap-2">
        {nextSteps(display).map((step, i) => (
          <Button key={step} type="submit" name="step" value={step} size="sm" variant={i === 0 ? "primary" : "white"}>
            {t(`simulator.firmware.steps.${step}`)}
          </Button>
        ))}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <SelectField
          label={String(t("simulator.firmware.failStage"))}
          name="failStage"
          defaultValue="download"
          options={FAIL_STAGES.map((stage) => ({ value: stage, label: String(t(`simulator.firmware.stages.${stage}`)) }))}
        />
        <Button type="submit" name="step" value="fw-fail" size="sm" variant="danger">
          {t("simulator.firmware.steps.fw-fail")}
        </Button>
      </div>
    </section>
  );
}
