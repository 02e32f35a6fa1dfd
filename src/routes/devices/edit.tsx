import { splitTags } from "@/schema/devices";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Device } from "@/server/data/devices";
import { usePage } from "@/server/render/page-context";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { NotesInput, PostForm, posted, refusedForm, SecretPanel, TextInput } from "./forms";
import { DeviceFrame } from "./frame";
import { deviceHref, devicesHref, type Frame } from "./paths";

type Data = { frame: Frame; account: AccountDetails | null; device: Device; origin: string };

const fields = ["name", "model", "tags", "notes"] as const;

function EditDevice({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { frame, account, device } = data;
  const text = (key: string) => String(t(key));
  const action = deviceHref(frame, "edit", device.uid);
  const intent = form?.values.intent;
  const secret = form?.values.secret;
  const details = intent === "details" ? form : undefined;
  return (
    <DeviceFrame
      account={account}
      title={text("routes.editDevice")}
      description={
        <>
          <a href={deviceHref(frame, "view", device.uid)} className="font-mono font-medium text-brand-700 hover:underline">
            {device.uid}
          </a>
          {" · "}
          {t("devices.edit.lead")}
        </>
      }
    >
      {secret ? <SecretPanel uid={device.uid} secret={secret} origin={data.origin} /> : null}
      <PostForm action={action} form={details} submit={text("devices.edit.submit")}>
        <input type="hidden" name="intent" value="details" />
        <input type="hidden" name="version" value={device.version} />
        <TextInput form={details} name="name" label={text("devices.fields.name")} value={device.name} maxLength={120} />
        <TextInput
          form={details}
          name="model"
          label={text("devices.fields.model")}
          value={device.model}
          required
          maxLength={60}
        />
        <TextInput
          form={details}
          name="tags"
          label={text("devices.fields.tags")}
          value={device.tags.join(", ")}
          hint={text("devices.fields.tagsHint")}
        />
        <NotesInput form={details} value={device.notes} />
      </PostForm>
      <section aria-labelledby="rotate-title" className="mt-10 max-w-xl">
        <h2 id="rotate-title" className="text-lg font-semibold text-slate-900">
          {t("devices.edit.rotateTitle")}
        </h2>
        <p className="mb-3 text-sm text-slate-600">{t("devices.edit.rotateLead")}</p>
        <PostForm
          action={action}
          form={intent === "rotate" && !secret ? form : undefined}
          submit={text("devices.edit.rotate")}
          variant="white"
        >
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="version" value={device.version} />
        </PostForm>
      </section>
      <section aria-labelledby="retire-title" className="mt-10 max-w-xl">
        <h2 id="retire-title" className="text-lg font-semibold text-slate-900">
          {t("devices.edit.retireTitle")}
        </h2>
        <p className="mb-3 text-sm text-slate-600">{t("devices.edit.retireLead")}</p>
        <PostForm
          action={action}
          form={intent === "retire" ? form : undefined}
          submit={text("devices.edit.retire")}
          variant="danger"
        >
          <input type="hidden" name="intent" value="retire" />
          <input type="hidden" name="version" value={device.version} />
        </PostForm>
      </section>
    </DeviceFrame>
  );
}

async function editAction(c: RouteContext, frame: Frame): Promise<ActionResult> {
  const uid = c.req.param("uid") ?? "";
  const values = await posted(c);
  const version = Number(values.version);
  const caller = api(c);
  try {
    if (values.intent === "rotate") {
      const { secret } = await caller.devices.rotateSecret({ uid, version });
      return { ok: false, status: 200, form: { values: { intent: "rotate", secret }, errors: {} } };
    }
    if (values.intent === "retire") {
      await caller.devices.retire({ uid, version });
      return { ok: true, redirect: devicesHref(frame), flash: { type: "success", key: "devices.retired", values: { uid } } };
    }
    const device = await caller.devices.update({
      uid,
      version,
      name: values.name ?? "",
      model: values.model ?? "",
      tags: splitTags(values.tags ?? ""),
      notes: values.notes ?? "",
    });
    // Without an account the radio is only the organization's: its own view is the inventory's.
    return {
      ok: true,
      redirect: deviceHref(frame, "view", device.uid),
      flash: { type: "success", key: "devices.saved", values: { uid: device.uid } },
    };
  } catch (error) {
    return refusedForm(error, { ...values, intent: values.intent ?? "details" }, fields);
  }
}

async function loadEdit(c: RouteContext, frame: Frame): Promise<Data> {
  const uid = c.req.param("uid") ?? "";
  const [account, details] = await Promise.all([
    frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
    api(c).devices.details({ uid, ...(frame.accountId ? { accountId: frame.accountId } : {}) }),
  ]);
  return { frame, account, device: details.device, origin: new URL(c.req.url).origin };
}

/** /devices/edit/{uid} (manage-devices): name, model, tags, notes; rotate the secret; retire. */
export const editDevicePage = definePage<Data>({
  load: (c) => loadEdit(c, { accountId: null }),
  Component: EditDevice,
  action: (c) => editAction(c, { accountId: null }),
});

export const registryEditDevicePage = definePage<Data>({
  load: (c) => loadEdit(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: EditDevice,
  action: (c) => editAction(c, { accountId: c.req.param("accountId") ?? "" }),
});
