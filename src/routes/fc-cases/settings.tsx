import { Choice, PostForm, refusedForm, TextInput } from "@/routes/devices/forms";
import { postedValues } from "@/routes/settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "@/routes/types";
import { fcPriorities } from "@/schema/fc-cases";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { FcSettings } from "@/server/data/fc-desk";
import { usePage } from "@/server/render/page-context";
import { FcFrame } from "./frame";
import { fcTabHref } from "./paths";

type Data = { account: AccountDetails; settings: FcSettings };

function SettingsPage({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { account, settings } = data;
  return (
    <FcFrame account={account} tab="fc-settings" title={String(t("routes.fcSettings"))}>
      <PostForm action={fcTabHref(account._id, "fc-settings")} form={form} submit={String(t("fc.settings.save"))}>
        <input type="hidden" name="version" value={settings.version} />
        <TextInput
          form={form}
          name="categories"
          label={String(t("fc.settings.categories"))}
          hint={String(t("fc.settings.categoriesHint"))}
          value={settings.categories.join(", ")}
          required
        />
        <Choice
          form={form}
          name="defaultPriority"
          label={String(t("fc.settings.defaultPriority"))}
          value={settings.defaultPriority}
          options={fcPriorities.map((p) => ({ value: p, label: String(t(`fc.priority.${p}`)) }))}
        />
        <TextInput
          form={form}
          name="autoCloseDays"
          label={String(t("fc.settings.autoCloseDays"))}
          hint={String(t("fc.settings.autoCloseHint"))}
          value={String(settings.autoCloseDays)}
        />
        <TextInput
          form={form}
          name="retentionDays"
          label={String(t("fc.settings.retentionDays"))}
          hint={String(t("fc.settings.retentionHint"))}
          value={String(settings.retentionDays)}
        />
      </PostForm>
    </FcFrame>
  );
}

const whole = (text: string | undefined) => (/^\d{1,5}$/.test((text ?? "").trim()) ? Number(text) : Number.NaN);

async function saveSettings(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  try {
    await api(c).fcCases.saveSettings({
      accountId,
      version: Number(values.version ?? 0) || 0,
      categories: (values.categories ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
      defaultPriority: (values.defaultPriority ?? "") as never,
      autoCloseDays: whole(values.autoCloseDays),
      retentionDays: whole(values.retentionDays),
    });
    return { ok: true, redirect: fcTabHref(accountId, "fc-settings"), flash: { type: "success", key: "fc.flash.settingsSaved" } };
  } catch (error) {
    return refusedForm(error, values, ["categories", "defaultPriority", "autoCloseDays", "retentionDays"]);
  }
}

/** …/fc-cases/fc-settings (view-all-users): categories, default priority, auto-close, retention. */
export const fcSettingsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, settings] = await Promise.all([accountDetails(c, accountId), api(c).fcCases.getSettings({ accountId })]);
    return { account, settings };
  },
  Component: SettingsPage,
  action: saveSettings,
});
