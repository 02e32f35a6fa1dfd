import { firmwareManifest } from "@/schema/fleet/firmware-manifest";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { PlainScript } from "@/ui/plain-script";
import { deploymentHref } from "../deployments/paths";
import { DeviceFrame } from "../devices/frame";
import type { Frame } from "../devices/paths";
import { definePage, type PageProps, type RouteContext } from "../types";
import { deleteFirmwareHref, firmwareHref, firmwarePackageHref, formatSize, frameOf } from "./paths";
import { uploadTexts } from "./upload";

type RouterOutput = Awaited<ReturnType<ReturnType<typeof api>["firmware"]["get"]>>;
type Data = { frame: Frame; account: AccountDetails | null; pkg: RouterOutput };

/**
 * An unfinished upload, resumed by choosing the same file again (with JavaScript only: the
 * script compares the file's slices with the stored parts' SHA-256 and sends the rest).
 */
function ResumeUpload({ frame, pkg }: { frame: Frame; pkg: RouterOutput }) {
  const { t, assets } = usePage();
  const text = (key: string) => String(t(key));
  return (
    <section
      aria-labelledby="resume-title"
      className="mb-6 max-w-xl"
      hidden
      data-firmware-upload=""
      data-resume-id={pkg.id}
      data-account-id={frame.accountId ?? ""}
      data-part-bytes={pkg.partBytes}
      data-parts={JSON.stringify(pkg.parts)}
      data-package-href={firmwarePackageHref(frame, "{id}")}
      data-list-href={firmwareHref(frame)}
      {...uploadTexts(text)}
    >
      <h2 id="resume-title" className="text-lg font-semibold text-slate-900">
        {t("firmware.resume.title")}
      </h2>
      <form className="mt-2 flex flex-col gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="resume-file" className="text-sm font-medium text-slate-800">
            {t("firmware.fields.file")}
          </label>
          <input
            id="resume-file"
            type="file"
            name="file"
            required
            aria-describedby="resume-file-hint"
            className="block w-full min-w-0 text-sm text-slate-800"
          />
          <p id="resume-file-hint" className="text-sm text-slate-600">
            {t("firmware.resume.help")}
          </p>
        </div>
        <div>
          <Button type="submit">{t("firmware.progress.resume")}</Button>
        </div>
      </form>
      <PlainScript script={assets.plainScripts.firmwareUpload} />
    </section>
  );
}

/** A value a firmware team copies (a hash, a key): monospace, wrapping anywhere so it fits 320 px. */
function Code({ children }: { children: string }) {
  return <code className="block font-mono text-xs break-all text-slate-900">{children}</code>;
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 py-2 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="min-w-0 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function PackageView({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { frame, account, pkg } = data;
  const text = (key: string) => String(t(key));
  const ready = pkg.state === "ready" && pkg.sha256 !== null;
  const actions = pkg.canManage && !pkg.inUse && (
    <ButtonLink href={deleteFirmwareHref(frame, pkg.id)} variant="danger">
      {t(ready ? "firmware.view.delete" : "firmware.view.cancelUpload")}
    </ButtonLink>
  );
  return (
    <DeviceFrame
      account={account}
      tab="firmware"
      title={`${text("routes.firmwarePackage")} ${pkg.version}`}
      description={pkg.canManage ? undefined : t("firmware.view.readOnly", { org: pkg.orgName })}
      actions={actions || undefined}
    >
      {ready ? null : (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-800" role="status">
          {t("firmware.view.uploading", { parts: pkg.partsReceived.length })}
        </p>
      )}
      {!ready && pkg.canManage ? <ResumeUpload frame={frame} pkg={pkg} /> : null}
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white px-4">
        <Detail term={text("firmware.fields.version")}>{pkg.version}</Detail>
        <Detail term={text("firmware.view.owner")}>{pkg.orgName}</Detail>
        <Detail term={text("firmware.view.models")}>{pkg.models.join(", ")}</Detail>
        <Detail term={text("firmware.view.state")}>{t(`firmware.state.${pkg.state}`)}</Detail>
        <Detail term={text("firmware.view.created")}>
          <time dateTime={pkg.createdAt}>{new Date(pkg.createdAt).toLocaleString(language, { timeZone: "UTC" })} UTC</time>
        </Detail>
        {ready ? (
          <>
            <Detail term={text("firmware.view.size")}>
              {t("firmware.view.bytes", {
                size: formatSize(pkg.size, language),
                bytes: new Intl.NumberFormat(language).format(pkg.size),
              })}
            </Detail>
            <Detail term={text("firmware.view.sha256")}>
              <Code>{pkg.sha256 ?? ""}</Code>
            </Detail>
            <Detail term={text("firmware.view.signature")}>
              <Code>{pkg.signature ?? ""}</Code>
            </Detail>
            <Detail term={text("firmware.view.keyId")}>
              <Code>{pkg.keyId ?? ""}</Code>
            </Detail>
            <Detail term={text("firmware.view.publicKey")}>
              <Code>{pkg.publicKey ?? ""}</Code>
            </Detail>
            <Detail term={text("firmware.view.manifest")}>
              <pre className="overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap break-all">
                {firmwareManifest({ packageId: pkg.id, version: pkg.version, sha256: pkg.sha256 ?? "", size: pkg.size })}
              </pre>
              <p className="mt-1 text-xs text-slate-600">{t("firmware.view.checkHelp")}</p>
            </Detail>
          </>
        ) : null}
        <Detail term={text("firmware.view.notes")}>
          {pkg.notes ? <p className="whitespace-pre-line">{pkg.notes}</p> : t("firmware.view.noNotes")}
        </Detail>
      </dl>

      <section aria-labelledby="package-deployments" className="mt-6">
        <h2 id="package-deployments" className="text-lg font-semibold text-slate-900">
          {t("firmware.view.deployments")}
        </h2>
        {pkg.deployments.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t("firmware.view.noDeployments")}</p>
        ) : (
          <ul className="mt-2 list-disc ps-5 text-sm">
            {pkg.deployments.map((deployment) => (
              <li key={deployment.id}>
                <a href={deploymentHref(deployment.accountId, deployment.id)} className="text-brand-700 hover:underline">
                  {t("firmware.view.deployment", {
                    account: deployment.accountName,
                    number: deployment.number,
                    state: text(`deployments.states.${deployment.state}`),
                    role: text(`firmware.view.${deployment.role}`),
                  })}
                </a>
              </li>
            ))}
          </ul>
        )}
        {pkg.inUse && pkg.canManage ? <p className="mt-2 text-sm text-slate-600">{t("firmware.inUseHelp")}</p> : null}
      </section>
      <p className="mt-6">
        <a href={firmwareHref(frame)} className="text-sm font-medium text-brand-700 hover:underline">
          {t("routes.firmwarePackages")}
        </a>
      </p>
    </DeviceFrame>
  );
}

export async function loadPackage(c: RouteContext): Promise<Data> {
  const accountId = c.req.param("accountId");
  const [account, pkg] = await Promise.all([
    accountId ? accountDetails(c, accountId) : Promise.resolve(null),
    api(c).firmware.get({ id: c.req.param("packageId") ?? "", accountId }),
  ]);
  return { frame: frameOf(accountId), account, pkg };
}

/** …/firmware/view/{packageId} (manage-devices): what a firmware team checks, and the deployments that use it. */
export const firmwarePackagePage = definePage<Data>({ load: loadPackage, Component: PackageView });
