import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { DeviceFrame } from "../devices/frame";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { deleteFirmwareHref, firmwareHref, firmwarePackageHref, frameOf } from "./paths";
import { loadPackage } from "./view";

type Data = Awaited<ReturnType<typeof loadPackage>>;

function DeletePackage({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { frame, account, pkg } = data;
  return (
    <DeviceFrame account={account} tab="firmware" title={String(t("routes.deleteFirmwarePackage"))}>
      <div className="max-w-2xl">
        <p className="text-slate-800">{t("firmware.deleteQuestion", { version: pkg.version })}</p>
        <p className="mt-2 text-sm text-slate-600">{t(pkg.inUse ? "firmware.inUseHelp" : "firmware.deleteHelp")}</p>
        <div className="mt-6 flex flex-wrap items-start gap-3">
          {pkg.inUse || !pkg.canManage ? null : (
            <Island
              name="confirm-form"
              props={{
                action: deleteFirmwareHref(frame, pkg.id),
                label: String(t(pkg.state === "ready" ? "firmware.view.delete" : "firmware.view.cancelUpload")),
                srLabel: pkg.version,
              }}
            />
          )}
          <ButtonLink href={firmwarePackageHref(frame, pkg.id)} variant="white" size="sm">
            {t("firmware.keep")}
          </ButtonLink>
        </div>
      </div>
    </DeviceFrame>
  );
}

async function deletePackage(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId");
  const frame = frameOf(accountId);
  const id = c.req.param("packageId") ?? "";
  try {
    const gone = await api(c).firmware.delete({ id, accountId });
    return {
      ok: true,
      redirect: firmwareHref(frame),
      flash: { type: "success", key: "firmware.deleted", values: { version: gone.version } },
    };
  } catch (error) {
    // In use (a deployment took it meanwhile) or read-only here: the package page says why.
    if (error instanceof TRPCError && (error.code === "CONFLICT" || error.code === "FORBIDDEN"))
      return {
        ok: true,
        redirect: firmwarePackageHref(frame, id),
        flash: { type: "error", key: `firmware.errors.${error.code === "CONFLICT" ? "inUse" : "readOnly"}` },
      };
    throw error;
  }
}

/** …/firmware/view/{packageId}/delete (manage-devices): asks before deleting a package or cancelling its upload. */
export const deleteFirmwarePackagePage = definePage<Data>({ load: loadPackage, Component: DeletePackage, action: deletePackage });
