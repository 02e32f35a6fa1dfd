import { Choice, NotesInput, PostForm, refusedForm } from "@/routes/devices/forms";
import { DeviceFrame } from "@/routes/devices/frame";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { fcDeviceSettingsHref } from "./paths";

type Loaded = Awaited<ReturnType<ReturnType<typeof api>["fcCases"]["getDeviceSettings"]>>;
type Data = Loaded & { account: AccountDetails | null; accountId: string | null };

function DeviceFcSettings({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, device, settings, customers, accountId } = data;
  return (
    <DeviceFrame
      account={account}
      title={String(t("routes.editFcDeviceSettings"))}
      description={device.name ? `${device.name} (${device.uid})` : device.uid}
    >
      <PostForm action={fcDeviceSettingsHref(device.uid, accountId)} form={form} submit={String(t("fc.device.save"))}>
        <input type="hidden" name="version" value={settings.version} />
        <Choice
          form={form}
          name="remoteSupport"
          label={String(t("fc.device.remoteSupport"))}
          hint={String(t("fc.device.remoteSupportHint"))}
          value={settings.remoteSupport ? "yes" : "no"}
          options={[
            { value: "yes", label: String(t("fc.device.allowed")) },
            { value: "no", label: String(t("fc.device.notAllowed")) },
          ]}
        />
        <Choice
          form={form}
          name="contactCustomerId"
          label={String(t("fc.device.contact"))}
          value={settings.contactCustomerId ?? ""}
          options={[
            { value: "", label: String(t("fc.sessions.noCustomer")) },
            ...customers.map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
        <NotesInput form={form} value={settings.notes} />
      </PostForm>
    </DeviceFrame>
  );
}

function page(inAccount: boolean) {
  const accountOf = (c: RouteContext) => (inAccount ? (c.req.param("accountId") ?? "") : null);
  async function save(c: RouteContext): Promise<ActionResult> {
    const accountId = accountOf(c);
    const uid = c.req.param("uid") ?? "";
    const values = await postedValues(c);
    try {
      await api(c).fcCases.saveDeviceSettings({
        uid,
        ...(accountId ? { accountId } : {}),
        version: Number(values.version ?? 0) || 0,
        remoteSupport: values.remoteSupport !== "no",
        contactCustomerId: values.contactCustomerId || null,
        notes: values.notes ?? "",
      });
      return {
        ok: true,
        redirect: fcDeviceSettingsHref(uid, accountId),
        flash: { type: "success", key: "fc.flash.deviceSaved" },
      };
    } catch (error) {
      const result = refusedForm(error, values, ["remoteSupport", "contactCustomerId", "notes"]);
      return result;
    }
  }
  return definePage<Data>({
    load: async (c) => {
      const accountId = accountOf(c);
      const uid = c.req.param("uid") ?? "";
      const [account, loaded] = await Promise.all([
        accountId ? accountDetails(c, accountId) : Promise.resolve(null),
        api(c).fcCases.getDeviceSettings({ uid, ...(accountId ? { accountId } : {}) }),
      ]);
      return { ...loaded, account, accountId };
    },
    Component: DeviceFcSettings,
    action: save,
  });
}

/** /devices/edit-fc-device-settings/:uid and the same in an account's registry (spec §2). */
export const fcDeviceSettingsPage = page(false);
export const registryFcDeviceSettingsPage = page(true);
