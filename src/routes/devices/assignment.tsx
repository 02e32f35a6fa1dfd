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
 * Changing the assignment is one form: the account is a field of it, so the account chosen is
 * the one saved (it was a separate form's, and Save posted the account the page was opened
 * with). Its places are the account's the page shows ("placesOf"); choosing another account,
 * "Show its sites" (or Save with a place of the former account) shows the new account's places
 * before anything is saved.
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
      <PostForm
        action={`${action}?account=${encodeURIComponent(chosenAccount)}`}
        form={form}
        submit={text("devices.assignment.submit")}
      >
        <input type="hidden" name="version" value={device.version} />
        <input type="hidden" name="placesOf" value={chosenAccount} />
        <div className="flex flex-wrap items-end gap-3">
          <div className="grow">
            <Choice
              form={form}
              name="accountId"
              label={text("devices.fields.account")}
              value={chosenAccount}
              options={[
                { value: "", label: text("devices.fields.unassigned") },
                ...data.accounts.map((a) => ({ value: a.id, label: a.name })),
              ]}
            />
          </div>
          <button
            type="submit"
            name="intent"
            value="places"
            formNoValidate
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium"
          >
            {t("devices.assignment.chooseAccount")}
          </button>
        </div>
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

async function loadAssignment(c: RouteContext, account?: string): Promise<Data> {
  const uid = c.req.param("uid") ?? "";
  const caller = api(c);
  const details = await caller.devices.details({ uid });
  const requested = account ?? new URL(c.req.url).searchParams.get("account");
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
  const accountId = values.accountId ?? "";
  // The places shown were another account's: show the chosen account's first (nothing saved),
  // unless there is no place to choose (none was, or "Show its sites" was not asked for).
  const placesStale = accountId !== (values.placesOf ?? "") && (values.place ?? "") !== "";
  if (values.intent === "places" || placesStale) {
    const params = new URLSearchParams(accountId ? { account: accountId } : { account: "" });
    return { ok: true, redirect: `${assignmentHref(uid, true)}?${params}` };
  }
  try {
    const device = await api(c).devices.assign({
      uid,
      version: Number(values.version),
      accountId: accountId || null,
      ...(accountId ? parsePlace(values.place) : { siteId: null, locationId: null }),
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
export const deviceAssignmentPage = definePage<Data>({ load: (c) => loadAssignment(c), Component: Assignment });

/** /devices/uid/{uid}/edit (manage-devices): change it; seats are checked in one statement. */
export const editDeviceAssignmentPage = definePage<Data>({
  load: (c) => loadAssignment(c),
  Component: EditAssignment,
  action: assign,
});
