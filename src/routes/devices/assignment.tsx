import { api } from "@/server/api/procedures-route";
import type { Device } from "@/server/data/devices";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { parsePlace, placeChoices, placeValue } from "./add";
import { Choice, PostForm, posted, refusedForm } from "./forms";
import { assignmentHref, deviceHref } from "./paths";

type Data = {
  device: Device;
  accounts: { id: string; name: string }[];
  places: { siteId: string; locationId: string | null; label: string }[];
  chosenAccount: string;
};

const inventory = { accountId: null };

function Assignment({ data }: PageProps<Data>) {
  const { t, user } = usePage();
  const { device } = data;
  const text = (key: string) => String(t(key));
  const rows: [string, string][] = [
    [text("devices.fields.account"), device.accountName ?? text("devices.fields.unassigned")],
    [text("devices.fields.site"), device.siteName ?? "—"],
    [text("devices.fields.location"), device.locationName ?? "—"],
  ];
  return (
    <>
      <PageHeader
        title={text("routes.deviceAssignment")}
        description={
          <a href={deviceHref(inventory, "view", device.uid)} className="font-mono font-medium text-brand-700 hover:underline">
            {device.uid}
          </a>
        }
        actions={
          user?.permissions["manage-devices"] && device.status === "active" ? (
            <ButtonLink href={assignmentHref(device.uid, true)}>{t("devices.view.assign")}</ButtonLink>
          ) : undefined
        }
      />
      <dl className="grid max-w-xl gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/**
 * Changing the assignment takes two steps without JavaScript: choose the account (the page
 * reloads with ?account= to offer its sites and locations), then the place.
 */
function EditAssignment({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { device, chosenAccount } = data;
  const text = (key: string) => String(t(key));
  const action = assignmentHref(device.uid, true);
  return (
    <>
      <PageHeader
        title={text("routes.editDeviceAssignment")}
        description={
          <a href={deviceHref(inventory, "view", device.uid)} className="font-mono font-medium text-brand-700 hover:underline">
            {device.uid}
          </a>
        }
      />
      <form method="get" action={action} className="mb-6 flex max-w-xl flex-wrap items-end gap-3">
        <div className="grow">
          <Choice
            form={undefined}
            name="account"
            label={text("devices.fields.account")}
            value={chosenAccount}
            options={[
              { value: "", label: text("devices.fields.unassigned") },
              ...data.accounts.map((a) => ({ value: a.id, label: a.name })),
            ]}
          />
        </div>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium">
          {t("devices.assignment.chooseAccount")}
        </button>
      </form>
      <PostForm
        action={`${action}?account=${encodeURIComponent(chosenAccount)}`}
        form={form}
        submit={text("devices.assignment.submit")}
      >
        <input type="hidden" name="version" value={device.version} />
        <input type="hidden" name="accountId" value={chosenAccount} />
        <p className="text-sm text-slate-700">
          {t("devices.assignment.into", {
            account: data.accounts.find((a) => a.id === chosenAccount)?.name ?? text("devices.fields.unassigned"),
          })}
        </p>
        {chosenAccount ? (
          <Choice
            form={form}
            name="place"
            label={text("devices.fields.sitePlace")}
            value={chosenAccount === device.accountId ? placeValue(device.siteId, device.locationId) : ""}
            options={placeChoices(data.places, text("devices.fields.noSite"))}
          />
        ) : null}
      </PostForm>
    </>
  );
}

async function loadAssignment(c: RouteContext): Promise<Data> {
  const uid = c.req.param("uid") ?? "";
  const caller = api(c);
  const details = await caller.devices.details({ uid });
  const requested = new URL(c.req.url).searchParams.get("account");
  const chosenAccount = requested === null ? (details.device.accountId ?? "") : requested;
  const [options, places] = await Promise.all([
    caller.devices.filterOptions({ orgId: details.device.orgId }).catch(() => ({ accounts: [] })),
    chosenAccount ? caller.devices.places({ accountId: chosenAccount }) : Promise.resolve([]),
  ]);
  return { device: details.device, accounts: options.accounts, places, chosenAccount };
}

async function assign(c: RouteContext): Promise<ActionResult> {
  const uid = c.req.param("uid") ?? "";
  const values = await posted(c);
  try {
    const device = await api(c).devices.assign({
      uid,
      version: Number(values.version),
      accountId: values.accountId || null,
      ...(values.accountId ? parsePlace(values.place) : { siteId: null, locationId: null }),
    });
    return {
      ok: true,
      redirect: assignmentHref(device.uid),
      flash: { type: "success", key: "devices.assigned", values: { uid: device.uid } },
    };
  } catch (error) {
    return refusedForm(error, values, ["place"]);
  }
}

/** /devices/uid/{uid}: the radio's assignment (organization, account, site, location). */
export const deviceAssignmentPage = definePage<Data>({ load: loadAssignment, Component: Assignment });

/** /devices/uid/{uid}/edit (manage-devices): change it; seats are checked in one statement. */
export const editDeviceAssignmentPage = definePage<Data>({ load: loadAssignment, Component: EditAssignment, action: assign });
