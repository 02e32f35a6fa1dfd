import { Island } from "@/islands/runtime/island";
import type { SettingsField } from "@/islands/settings-form.island";
import { formRefusal, postedValues, translatedErrors } from "@/routes/settings/procedure-refusal";
import type { ActionResult, FormState, RouteContext } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import type { Location } from "@/server/data/locations";
import type { Translate } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";

export type SiteOption = { value: string; label: string };

export const locationFieldNames = ["siteId", "name", "description"] as const;

export function locationValues(location: Pick<Location, "siteId" | "name" | "description" | "version">): Record<string, string> {
  return { siteId: location.siteId, name: location.name, description: location.description, version: String(location.version) };
}

/** A location's general fields, as the settings-form island renders them; the site is chosen from the account's. */
export function locationFields(t: Translate, sites: SiteOption[], values: Record<string, string>): SettingsField[] {
  const text = (key: string) => String(t(key));
  const chosen = values.siteId ?? "";
  // A site beyond the picker's limit (a very large account) stays selectable.
  const options = sites.some((site) => site.value === chosen) || !chosen ? sites : [{ value: chosen, label: chosen }, ...sites];
  return [
    {
      kind: "select",
      name: "siteId",
      label: text("locations.fields.site"),
      value: chosen,
      options: chosen ? options : [{ value: "", label: text("locations.fields.chooseSite") }, ...options],
    },
    {
      kind: "text",
      name: "name",
      label: text("locations.fields.name"),
      value: values.name ?? "",
      rule: "name",
      subject: "locationName",
    },
    {
      kind: "text",
      name: "description",
      label: text("locations.fields.description"),
      value: values.description ?? "",
      hint: text("locations.fields.descriptionHint"),
    },
  ];
}

export function locationInput(values: Record<string, string>) {
  return { siteId: values.siteId ?? "", name: values.name ?? "", description: values.description ?? "" };
}

/** The general form of an existing location and, below it, deleting it. */
export function LocationEditor({
  action,
  location,
  sites,
  form,
}: {
  action: string;
  location: Location;
  sites: SiteOption[];
  form?: FormState;
}) {
  const { t } = usePage();
  const deleting = form?.values.intent === "delete";
  // After a failed save the form shows what was typed, and the version it was typed on.
  const values = form && !deleting ? form.values : locationValues(location);
  const errors = translatedErrors(form?.errors, t);
  return (
    <>
      <Island
        name="settings-form"
        props={{
          action,
          fields: [
            { kind: "hidden", name: "intent", value: "save" },
            { kind: "hidden", name: "version", value: values.version ?? "" },
            ...locationFields(t, sites, values),
          ],
          submitLabel: String(t("settings.save")),
          errors: deleting ? {} : errors,
          reload: { href: action, text: String(t("settings.reloadCurrent")) },
        }}
      />
      <section aria-labelledby="delete-heading" className="mt-10 max-w-xl rounded-lg border border-red-200 bg-white p-5">
        <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
          {t("locations.delete.heading")}
        </h2>
        <p className="mt-2 mb-4 text-sm text-slate-700">{t("locations.delete.explain", { name: location.name })}</p>
        <Island
          name="confirm-form"
          props={{
            action,
            label: String(t("locations.delete.submit")),
            hidden: { intent: "delete", version: String(location.version) },
            error: deleting ? errors.form : undefined,
          }}
        />
      </section>
    </>
  );
}

/**
 * Saves or deletes the location of the route, then goes where the page says: the same screen
 * after a save (under its new site if it moved), the list after a delete.
 */
export async function saveOrDeleteLocation(
  c: RouteContext,
  targets: { saved: (location: Location) => string; deleted: (location: { siteId: string }) => string },
): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("locationId") ?? "";
  const values = await postedValues(c);
  const caller = api(c);
  try {
    if (values.intent === "delete") {
      const result = await caller.locations.delete({ accountId, id, version: Number(values.version) });
      return {
        ok: true,
        redirect: targets.deleted(result),
        flash: { type: "success", key: "locations.deleted", values: { name: result.name } },
      };
    }
    const location = await caller.locations.update({ accountId, id, version: Number(values.version), ...locationInput(values) });
    return {
      ok: true,
      redirect: targets.saved(location),
      flash: { type: "success", key: "locations.saved", values: { name: location.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: values.intent === "delete" ? [] : locationFieldNames });
  }
}
