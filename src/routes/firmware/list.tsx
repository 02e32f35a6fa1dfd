import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Table } from "@/ui/table";
import { DeviceFrame } from "../devices/frame";
import type { Frame } from "../devices/paths";
import { definePage, type PageProps, type RouteContext } from "../types";
import { firmwarePackageHref, formatSize, frameOf, uploadFirmwareHref } from "./paths";

export type PackageItem = {
  id: string;
  orgName: string;
  version: string;
  models: string[];
  size: number;
  state: "uploading" | "ready";
  inUse: boolean;
  canManage: boolean;
};
type Data = { frame: Frame; account: AccountDetails | null; items: PackageItem[] };

function PackagesList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { frame, account, items } = data;
  const text = (key: string) => String(t(key));
  const upload = <ButtonLink href={uploadFirmwareHref(frame)}>{t("firmware.upload")}</ButtonLink>;
  return (
    <DeviceFrame
      account={account}
      tab="firmware"
      title={text("routes.firmwarePackages")}
      description={t("firmware.lead")}
      actions={upload}
    >
      <Table<PackageItem>
        caption={text("routes.firmwarePackages")}
        rows={items}
        rowKey={(item) => item.id}
        empty={<EmptyState title={text("firmware.empty")} description={text("firmware.emptyHelp")} action={upload} />}
        columns={[
          {
            key: "version",
            header: text("firmware.columns.version"),
            cell: (item) => (
              <a href={firmwarePackageHref(frame, item.id)} className="font-medium text-brand-700 hover:underline">
                {item.version}
              </a>
            ),
          },
          { key: "models", header: text("firmware.columns.models"), cell: (item) => item.models.join(", ") },
          {
            key: "size",
            header: text("firmware.columns.size"),
            cell: (item) => (item.state === "ready" ? formatSize(item.size, language) : "—"),
          },
          { key: "state", header: text("firmware.columns.state"), cell: (item) => t(`firmware.state.${item.state}`) },
          {
            key: "owner",
            header: text("firmware.columns.owner"),
            cell: (item) => (
              <>
                {item.orgName}
                {item.canManage ? null : <span className="block text-xs text-slate-600">{t("firmware.readOnly")}</span>}
              </>
            ),
          },
          {
            key: "use",
            header: text("firmware.columns.use"),
            cell: (item) => t(item.inUse ? "firmware.inUse" : "firmware.notInUse"),
          },
        ]}
      />
    </DeviceFrame>
  );
}

async function loadList(c: RouteContext): Promise<Data> {
  const accountId = c.req.param("accountId");
  const [account, list] = await Promise.all([
    accountId ? accountDetails(c, accountId) : Promise.resolve(null),
    api(c).firmware.list({ accountId }),
  ]);
  return { frame: frameOf(accountId), account, items: list.items };
}

/** /devices/firmware and /accounts/{accountId}/registry/firmware (manage-devices): the packages the frame sees. */
export const firmwarePackagesPage = definePage<Data>({ load: loadList, Component: PackagesList });
