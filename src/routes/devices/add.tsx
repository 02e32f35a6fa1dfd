import { splitTags } from "@/schema/devices";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { Choice, NotesInput, PostForm, posted, refusedForm, SecretPanel, TextInput } from "./forms";
import { DeviceFrame } from "./frame";
import { addDeviceHref, deviceHref, devicesHref, type Frame } from "./paths";

type Place = { siteId: string; locationId: string | null; label: string };

type Data = {
  frame: Frame;
  account: AccountDetails | null;
  accounts: { id: string; name: string }[];
  places: Place[];
  brand: string;
  uid: string;
  origin: string;
};

const fields = ["uid", "brand", "model", "name", "tags", "notes", "accountId", "place"] as const;

/** "siteId" or "siteId/locationId" as a select's value. */
export function placeValue(siteId: string | null, locationId: string | null): string {
  return siteId ? (locationId ? `${siteId}/${locationId}` : siteId) : "";
}

export function parsePlace(value: string | undefined): { siteId: string | null; locationId: string | null } {
  const [siteId, locationId] = (value ?? "").split("/");
  return { siteId: siteId || null, locationId: locationId || null };
}

export function placeChoices(places: Place[], none: string) {
  return [{ value: "", label: none }, ...places.map((p) => ({ value: placeValue(p.siteId, p.locationId), label: p.label }))];
}

/**
 * The second step of "assign a radio of the inventory" when the radio is in another account:
 * it names that account and moves the radio only when confirmed (the version it was asked on
 * travels with the confirmation, so a radio moved meanwhile is asked about again).
 */
function ConfirmMove({
  frame,
  account,
  values,
  form,
}: {
  frame: Frame;
  account: AccountDetails;
  values: Record<string, string>;
  form: PageProps<Data>["form"];
}) {
  const { t } = usePage();
  const words = { uid: values.uid, from: values.fromName, to: account.name };
  return (
    <section aria-labelledby="confirm-move" className="mb-8 rounded-lg border border-amber-300 bg-amber-50 p-4" data-confirm-move>
      <h2 id="confirm-move" className="text-lg font-semibold text-slate-900">
        {t("devices.add.moveTitle", words)}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-800">{t("devices.add.moveQuestion", words)}</p>
      <PostForm
        action={addDeviceHref(frame, values.uid)}
        form={form?.errors.form ? form : undefined}
        submit={String(t("devices.add.moveSubmit", words))}
      >
        <input type="hidden" name="intent" value="assign" />
        <input type="hidden" name="uid" value={values.uid} />
        <input type="hidden" name="place" value={values.place ?? ""} />
        <input type="hidden" name="fromAccount" value={values.fromAccount} />
        <input type="hidden" name="version" value={values.version} />
      </PostForm>
      <p className="mt-3 text-sm">
        <a href={addDeviceHref(frame)} className="font-medium text-brand-700 hover:underline">
          {t("devices.add.moveCancel", words)}
        </a>
      </p>
    </section>
  );
}

function AddDevice({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { frame, account } = data;
  const text = (key: string) => String(t(key));
  const secret = form?.values.secret;
  const registered = form?.values.registered;
  return (
    <DeviceFrame
      account={account}
      title={text("routes.addDevice")}
      description={
        <>
          <a href={devicesHref(frame)} className="font-medium text-brand-700 hover:underline">
            {t(account ? "devices.registry.title" : "routes.devices")}
          </a>
          {" · "}
          {t("devices.add.lead")}
        </>
      }
    >
      {secret && registered ? (
        <>
          <SecretPanel uid={registered} secret={secret} origin={data.origin} />
          <p className="mb-8 flex gap-4 text-sm">
            <a href={deviceHref(frame, "view", registered)} className="font-medium text-brand-700 hover:underline">
              {t("devices.add.openRadio")}
            </a>
            <a href={addDeviceHref(frame)} className="font-medium text-brand-700 hover:underline">
              {t("devices.add.another")}
            </a>
          </p>
        </>
      ) : null}
      {account && form?.values.step === "confirmMove" ? (
        <ConfirmMove frame={frame} account={account} values={form.values} form={form} />
      ) : null}
      {account ? (
        <section aria-labelledby="assign-existing" className="mb-8">
          <h2 id="assign-existing" className="mb-2 text-lg font-semibold text-slate-900">
            {t("devices.add.assignExisting")}
          </h2>
          <PostForm
            action={addDeviceHref(frame, data.uid || undefined)}
            form={form?.values.intent === "assign" && form.values.step !== "confirmMove" ? form : undefined}
            submit={text("devices.add.assignSubmit")}
          >
            <input type="hidden" name="intent" value="assign" />
            <TextInput
              form={form?.values.intent === "assign" ? form : undefined}
              name="uid"
              label={text("devices.fields.uid")}
              value={data.uid}
              required
              maxLength={64}
            />
            <Choice
              form={form?.values.intent === "assign" ? form : undefined}
              name="place"
              label={text("devices.fields.sitePlace")}
              value=""
              options={placeChoices(data.places, text("devices.fields.noSite"))}
            />
          </PostForm>
          <h2 className="mt-8 mb-2 text-lg font-semibold text-slate-900">{t("devices.add.registerNew")}</h2>
        </section>
      ) : null}
      <PostForm
        action={addDeviceHref(frame, data.uid || undefined)}
        form={form?.values.intent === "register" ? form : undefined}
        submit={text("devices.add.submit")}
      >
        <input type="hidden" name="intent" value="register" />
        {(() => {
          const f = form?.values.intent === "register" && !secret ? form : undefined;
          return (
            <>
              <TextInput
                form={f}
                name="uid"
                label={text("devices.fields.uid")}
                value={account ? "" : data.uid}
                hint={text("devices.fields.uidHint")}
                required
                maxLength={64}
              />
              <TextInput form={f} name="brand" label={text("devices.fields.brand")} value={data.brand} required maxLength={40} />
              <TextInput form={f} name="model" label={text("devices.fields.model")} value="" required maxLength={60} />
              <TextInput form={f} name="name" label={text("devices.fields.name")} value="" maxLength={120} />
              <TextInput
                form={f}
                name="tags"
                label={text("devices.fields.tags")}
                value=""
                hint={text("devices.fields.tagsHint")}
              />
              {account ? (
                <Choice
                  form={f}
                  name="place"
                  label={text("devices.fields.sitePlace")}
                  value=""
                  options={placeChoices(data.places, text("devices.fields.noSite"))}
                />
              ) : (
                <Choice
                  form={f}
                  name="accountId"
                  label={text("devices.fields.account")}
                  value=""
                  hint={text("devices.fields.accountHint")}
                  options={[
                    { value: "", label: text("devices.fields.unassigned") },
                    ...data.accounts.map((a) => ({ value: a.id, label: a.name })),
                  ]}
                />
              )}
              <NotesInput form={f} value="" />
            </>
          );
        })()}
      </PostForm>
    </DeviceFrame>
  );
}

async function addAction(c: RouteContext, frame: Frame): Promise<ActionResult> {
  const values = await posted(c);
  if (values.intent === "assign" && frame.accountId) return assignFromInventory(c, frame.accountId, values);
  const caller = api(c);
  const place = parsePlace(values.place);
  try {
    const { device, secret } = await caller.devices.add({
      uid: values.uid ?? "",
      brand: values.brand ?? "",
      model: values.model ?? "",
      name: values.name ?? "",
      tags: splitTags(values.tags ?? ""),
      notes: values.notes ?? "",
      accountId: frame.accountId ?? (values.accountId || null),
      ...(frame.accountId ? place : { siteId: null, locationId: null }),
    });
    // The secret is shown on this answer only: never stored, never in a redirect or a cookie.
    return { ok: false, status: 200, form: { values: { intent: "register", registered: device.uid, secret }, errors: {} } };
  } catch (error) {
    // In an account's frame the account is not a field: its refusals (seats) go on the form.
    return refusedForm(
      error,
      { ...values, intent: "register" },
      frame.accountId ? fields.filter((f) => f !== "accountId") : fields,
    );
  }
}

/**
 * "Assign a radio of the inventory" in an account's registry. A radio in no account is
 * assigned at once; one in another account is moved only once the person confirmed, having
 * been told which account it leaves. Seats are the one conditional statement's (devices.assign):
 * none free is a message on the form, never an empty 422.
 */
async function assignFromInventory(c: RouteContext, accountId: string, values: Record<string, string>): Promise<ActionResult> {
  const caller = api(c);
  const frame = { accountId };
  const fields = ["uid", "place"];
  try {
    const { device } = await caller.devices.details({ uid: (values.uid ?? "").trim() });
    const elsewhere = device.accountId !== null && device.accountId !== accountId;
    const confirmed = elsewhere && values.fromAccount === device.accountId && values.version === String(device.version);
    if (elsewhere && !confirmed) {
      // The words come from the radio as it is now, never from the post.
      const step = {
        intent: "assign",
        step: "confirmMove",
        uid: device.uid,
        place: values.place ?? "",
        fromAccount: device.accountId ?? "",
        fromName: device.accountName ?? device.accountId ?? "",
        version: String(device.version),
      };
      // Asked again because the radio changed since the person confirmed: say so.
      const errors: Record<string, string> = values.fromAccount ? { form: "errors.staleEdit" } : {};
      return { ok: false, status: values.fromAccount ? 409 : 200, form: { values: step, errors } };
    }
    const moved = await caller.devices.assign({
      uid: device.uid,
      version: device.version,
      accountId,
      ...parsePlace(values.place),
    });
    return {
      ok: true,
      redirect: deviceHref(frame, "view", moved.uid),
      flash: { type: "success", key: "devices.assigned", values: { uid: moved.uid } },
    };
  } catch (error) {
    // A uid not in the organization's inventory reads as a problem of the field, not an error page.
    if (error instanceof Error && "code" in error && error.code === "NOT_FOUND")
      return { ok: false, status: 404, form: { values: { ...values, step: "" }, errors: { uid: "devices.errors.notFound" } } };
    // Seats (the account is no field of this form) and the rest: on the form, with its message.
    return refusedForm(error, { ...values, intent: "assign", step: "" }, fields);
  }
}

async function loadAdd(c: RouteContext, frame: Frame): Promise<Data> {
  const caller = api(c);
  const scope = frame.accountId ? { accountId: frame.accountId } : {};
  const [account, options, places] = await Promise.all([
    frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
    caller.devices.filterOptions(scope),
    frame.accountId ? caller.devices.places({ accountId: frame.accountId }) : Promise.resolve([]),
  ]);
  const brand = c.get("settings").deviceBrandFilter;
  return {
    frame,
    account,
    accounts: options.accounts,
    places,
    brand: brand ? (c.get("settings").brandName.split(" ")[0] ?? brand) : "",
    uid: c.req.param("uid") ?? "",
    origin: new URL(c.req.url).origin,
  };
}

/** /devices/add (manage-devices): register one radio; its secret is shown once. */
export const addDevicePage = definePage<Data>({
  load: (c) => loadAdd(c, { accountId: null }),
  Component: AddDevice,
  action: (c) => addAction(c, { accountId: null }),
});

/** /accounts/{id}/registry/devices/add/{uid?} (manage-devices): assign a radio of the inventory, or register one here. */
export const registryAddDevicePage = definePage<Data>({
  load: (c) => loadAdd(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: AddDevice,
  action: (c) => addAction(c, { accountId: c.req.param("accountId") ?? "" }),
});
