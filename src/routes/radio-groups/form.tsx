import { TRPCError } from "@trpc/server";
import { syncStates } from "@/schema/fleet/sync-state";
import type { GroupFilter } from "@/schema/fleet/target";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { Field } from "@/ui/field";
import { Choice, PostForm, posted, refusedForm, TextInput, useMessage } from "../devices/forms";
import { DeviceFrame } from "../devices/frame";
import { notFound } from "../profiles/load";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import type { Place } from "./conditions";
import { deleteGroupHref, groupHref, groupsHref, newGroupHref } from "./paths";

type Group = { id: string; name: string; filter: GroupFilter; version: number; count: number };
type Data = { account: AccountDetails; group: Group | null; places: Place[]; models: string[]; firmware: string[] };

const conditionFields = ["siteId", "locationId", "model", "firmware", "tag", "sync"] as const;
const fields = ["name", ...conditionFields] as const;

/** A text condition with the values the account's radios have as suggestions (a datalist, no JavaScript needed). */
function Suggested({
  name,
  label,
  hint,
  value,
  suggestions,
  error,
}: {
  name: string;
  label: string;
  hint?: string;
  value: string;
  suggestions: string[];
  error?: string;
}) {
  return (
    <>
      <Field
        label={label}
        name={name}
        hint={hint}
        defaultValue={value}
        error={error}
        list={`${name}-suggestions`}
        maxLength={60}
      />
      <datalist id={`${name}-suggestions`}>
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
    </>
  );
}

function GroupForm({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const message = useMessage();
  const { account, group, places, models, firmware } = data;
  const text = (key: string) => String(t(key));
  const value = (name: (typeof fields)[number]) =>
    form?.values[name] ?? (name === "name" ? (group?.name ?? "") : (group?.filter[name] ?? ""));
  const any = { value: "", label: text("radioGroups.fields.any") };
  const sites = places.filter((p) => p.locationId === null).map((p) => ({ value: p.siteId, label: p.label }));
  const locations = places.flatMap((p) => (p.locationId ? [{ value: p.locationId, label: p.label }] : []));
  return (
    <DeviceFrame
      account={account}
      title={text(group ? "routes.radioGroup" : "routes.addRadioGroup")}
      description={group ? t("radioGroups.count", { count: group.count }) : t("radioGroups.lead")}
      actions={
        group ? (
          <ButtonLink href={deleteGroupHref(account._id, group.id)} variant="danger">
            {t("radioGroups.delete")}
          </ButtonLink>
        ) : undefined
      }
    >
      <PostForm
        action={group ? groupHref(account._id, group.id) : newGroupHref(account._id)}
        form={form}
        submit={text(group ? "radioGroups.save" : "radioGroups.create")}
      >
        {group ? <input type="hidden" name="version" value={group.version} /> : null}
        <TextInput
          form={form}
          name="name"
          label={text("radioGroups.fields.name")}
          hint={text("radioGroups.fields.nameHint")}
          value={group?.name ?? ""}
          required
          maxLength={80}
        />
        <fieldset className="flex min-w-0 flex-col gap-4 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-900">{t("radioGroups.fields.conditions")}</legend>
          <p className="text-sm text-slate-600">{t("radioGroups.fields.conditionsHint")}</p>
          <Choice
            form={form}
            name="siteId"
            label={text("devices.fields.site")}
            value={value("siteId")}
            options={[any, ...sites]}
          />
          <Choice
            form={form}
            name="locationId"
            label={text("devices.fields.location")}
            value={value("locationId")}
            options={[{ value: "", label: text("radioGroups.fields.allLocations") }, ...locations]}
          />
          <Suggested
            name="model"
            label={text("devices.fields.model")}
            value={value("model")}
            suggestions={models}
            error={message(form?.errors.model)}
          />
          <Suggested
            name="firmware"
            label={text("devices.fields.firmware")}
            hint={text("radioGroups.fields.firmwareHint")}
            value={value("firmware")}
            suggestions={firmware}
            error={message(form?.errors.firmware)}
          />
          <TextInput
            form={form}
            name="tag"
            label={text("radioGroups.fields.tag")}
            hint={text("radioGroups.fields.tagHint")}
            value={group?.filter.tag ?? ""}
            maxLength={32}
          />
          <Choice
            form={form}
            name="sync"
            label={text("devices.fields.sync")}
            value={value("sync")}
            options={[any, ...syncStates.map((s) => ({ value: s, label: text(`fleetStates.sync.${s}`) }))]}
          />
        </fieldset>
      </PostForm>
      <p className="mt-4">
        <a href={groupsHref(account._id)} className="text-sm font-medium text-brand-700 hover:underline">
          {t("radioGroups.cancel")}
        </a>
      </p>
    </DeviceFrame>
  );
}

/** The posted conditions: empty fields are no condition. */
function conditionsOf(values: Record<string, string>): GroupFilter {
  const filter: Record<string, string> = {};
  for (const name of conditionFields) {
    const value = (values[name] ?? "").trim();
    if (value !== "") filter[name] = value;
  }
  return filter as GroupFilter;
}

async function saveGroup(c: RouteContext, groupId: string | null): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const values = await posted(c);
  const input = { accountId, name: values.name ?? "", ...conditionsOf(values) };
  try {
    const group = groupId
      ? await api(c).radioGroups.update({ ...input, groupId, version: Number(values.version ?? 0) || 0 })
      : await api(c).radioGroups.create(input);
    return {
      ok: true,
      redirect: groupsHref(accountId),
      flash: { type: "success", key: groupId ? "radioGroups.saved" : "radioGroups.created", values: { name: group.name } },
    };
  } catch (error) {
    // A version that is not a number reads as 0: the procedure refuses it like any bad field.
    if (error instanceof TRPCError && error.code === "BAD_REQUEST" && Number(values.version) < 1 && groupId)
      return { ok: false, status: 409, form: { values, errors: { form: "errors.staleEdit" } } };
    return refusedForm(error, values, fields);
  }
}

async function loadForm(c: RouteContext, withGroup: boolean): Promise<Data> {
  const accountId = c.req.param("accountId") ?? "";
  const groupId = c.req.param("groupId") ?? "";
  const caller = api(c);
  const [account, places, options, group] = await Promise.all([
    accountDetails(c, accountId),
    caller.devices.places({ accountId }),
    caller.devices.filterOptions({ accountId }),
    withGroup ? caller.radioGroups.get({ accountId, groupId }) : Promise.resolve(null),
  ]);
  if (withGroup && !group) throw notFound(c, "radioGroups.errors.notFound");
  return { account, group, places, models: options.models, firmware: options.firmware };
}

/** /accounts/{accountId}/registry/devices/groups/new (manage-devices). */
export const newRadioGroupPage = definePage<Data>({
  load: (c) => loadForm(c, false),
  Component: GroupForm,
  action: (c) => saveGroup(c, null),
});

/** /accounts/{accountId}/registry/devices/groups/{groupId} (manage-devices): edit at the version shown. */
export const editRadioGroupPage = definePage<Data>({
  load: (c) => loadForm(c, true),
  Component: GroupForm,
  action: async (c) => {
    const group = await api(c).radioGroups.get({
      accountId: c.req.param("accountId") ?? "",
      groupId: c.req.param("groupId") ?? "",
    });
    return saveGroup(c, group.id);
  },
});
