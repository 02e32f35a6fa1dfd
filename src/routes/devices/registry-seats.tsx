import { Island } from "@/islands/runtime/island";
import type { SettingsField } from "@/islands/settings-form.island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { StatusMessage } from "@/ui/status-message";
import { postedValues, translatedErrors } from "../settings/procedure-refusal";
import { seatCount, seatsRefusal, seatsText } from "../settings/seats-shared";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { RegistryTabs } from "./frame";

/**
 * The registry's seat screens (spec §6: registry/subscriptions allocate, deallocate and
 * editAllocation/{allocationId}) in the account's frame: the settings screens' procedures
 * (subscriptions.allocate, deallocate, updateAllocation, which check edit-accounts and the
 * tenant), with the account fixed by the path. An allocation of another account is the
 * not-found screen, like one that does not exist.
 */

type Caller = ReturnType<typeof api>;
type Allocation = Awaited<ReturnType<Caller["subscriptions"]["allocation"]>>["allocation"];
type Subscription = Awaited<ReturnType<Caller["subscriptions"]["allocation"]>>["subscription"];
type Choices = Awaited<ReturnType<Caller["subscriptions"]["allocationChoices"]>>;

export const registrySeatsHref = (accountId: string, rest = "") =>
  `/accounts/${encodeURIComponent(accountId)}/registry/subscriptions${rest}`;

function accountIdOf(c: RouteContext): string {
  return c.req.param("accountId") ?? "";
}

/** Only those who change seats (the procedures check again): others get the protected screen. */
function assertManages(c: RouteContext) {
  const can = c.get("user")?.permissions ?? {};
  if (!can["view-subscriptions-in-organizations"] || !can["edit-accounts"]) throw new AppError("FORBIDDEN");
}

/** The allocation named by the path or query, if it is this account's (else not found). */
async function allocationOfAccount(c: RouteContext, allocationId: string) {
  const found = await api(c).subscriptions.allocation({ id: allocationId });
  if (found.allocation.accountId !== accountIdOf(c)) throw new AppError("NOT_FOUND");
  return found;
}

function SeatsFrame({ account, title, children }: { account: AccountDetails; title: string; children: React.ReactNode }) {
  return (
    <AccountLayout account={account}>
      <RegistryTabs accountId={account._id} current="subscriptions" />
      <div className="mt-4 max-w-2xl">
        <PageHeader title={title} />
        {children}
      </div>
    </AccountLayout>
  );
}

// ── allocate ──────────────────────────────────────────────────────────────────────────

type AllocateData = { account: AccountDetails; subscriptions: Choices["subscriptions"] };

function RegistryAllocate({ data, form }: PageProps<AllocateData>) {
  const { t, language } = usePage();
  const { account, subscriptions } = data;
  const values = form?.values ?? {};
  return (
    <SeatsFrame account={account} title={String(t("routes.allocateToAccount"))}>
      {subscriptions.length === 0 ? (
        <StatusMessage tone="info">{t("allocations.noSubscriptions")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: registrySeatsHref(account._id, "/allocate"),
            submitLabel: String(t("subscriptions.allocate")),
            cancel: { href: registrySeatsHref(account._id), text: String(t("subscriptions.cancel")) },
            errors: translatedErrors(form?.errors, t),
            fields: [
              {
                kind: "select",
                rule: "choice",
                name: "subscriptionId",
                label: String(t("allocations.fields.subscription")),
                value: values.subscriptionId ?? (subscriptions.length === 1 ? (subscriptions[0]?.id ?? "") : ""),
                options: [
                  { value: "", label: String(t("allocations.chooseSubscription")) },
                  ...subscriptions.map((subscription) => ({
                    value: subscription.id,
                    label: String(
                      t("allocations.subscriptionOption", {
                        plan: subscription.plan,
                        organization: subscription.organizationName,
                        free: formatNumber(language, subscription.free),
                      }),
                    ),
                  })),
                ],
              },
              {
                kind: "number",
                name: "quantity",
                label: String(t("allocations.fields.seats")),
                value: values.quantity ?? "",
                rule: "seats",
              },
            ],
          }}
        />
      )}
    </SeatsFrame>
  );
}

async function allocate(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const accountId = accountIdOf(c);
  try {
    const allocation = await api(c).subscriptions.allocate({
      subscriptionId: values.subscriptionId ?? "",
      accountId,
      quantity: seatCount(values.quantity),
    });
    return {
      ok: true,
      redirect: registrySeatsHref(accountId),
      flash: {
        type: "success",
        key: "subscriptions.allocated",
        values: {
          count: seatCount(values.quantity),
          seats: seatsText(c, seatCount(values.quantity)),
          account: allocation.accountName,
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: ["subscriptionId", "quantity"] });
  }
}

export const registryAllocatePage = definePage<AllocateData>({
  load: async (c) => {
    assertManages(c);
    const account = await accountDetails(c, accountIdOf(c));
    const choices = await api(c).subscriptions.allocationChoices({ orgId: account.orgId });
    return { account, subscriptions: choices.subscriptions };
  },
  Component: RegistryAllocate,
  action: allocate,
  toaster: true,
});

// ── editAllocation/{allocationId} ───────────────────────────────────────────────────────

type EditData = { account: AccountDetails; allocation: Allocation; subscription: Subscription };

function RegistryEditAllocation({ data, form }: PageProps<EditData>) {
  const { t, language } = usePage();
  const { account, allocation, subscription } = data;
  const values = form?.values ?? {};
  const path = registrySeatsHref(account._id, `/editAllocation/${encodeURIComponent(allocation.id)}`);
  const upTo = allocation.quantity + Math.max(subscription.free, 0);
  return (
    <SeatsFrame account={account} title={String(t("routes.editAllocation"))}>
      <p className="mb-6 text-slate-800">
        {t("allocations.holds", {
          count: allocation.quantity,
          account: allocation.accountName,
          seats: formatNumber(language, allocation.quantity),
          plan: allocation.plan,
        })}{" "}
        {t("allocations.moreFree", { count: Math.max(subscription.free, 0), free: formatNumber(language, subscription.free) })}
      </p>
      <Island
        name="settings-form"
        props={{
          networkErrorKey: "subscriptions.networkError",
          action: path,
          submitLabel: String(t("subscriptions.save")),
          cancel: { href: registrySeatsHref(account._id), text: String(t("subscriptions.cancel")) },
          reload: { href: path, text: String(t("settings.reloadCurrent")) },
          errors: translatedErrors(form?.errors, t),
          fields: [
            { kind: "hidden", name: "version", value: values.version ?? String(allocation.version) },
            {
              kind: "number",
              name: "quantity",
              label: String(t("allocations.fields.seats")),
              hint: String(t("allocations.seatsUpTo", { count: upTo, max: formatNumber(language, upTo) })),
              value: values.quantity ?? String(allocation.quantity),
              rule: "seats",
            },
          ],
        }}
      />
    </SeatsFrame>
  );
}

async function saveAllocation(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    await allocationOfAccount(c, c.req.param("allocationId") ?? "");
    const allocation = await api(c).subscriptions.updateAllocation({
      id: c.req.param("allocationId") ?? "",
      version: Number(values.version),
      quantity: seatCount(values.quantity),
    });
    return {
      ok: true,
      redirect: registrySeatsHref(accountIdOf(c)),
      flash: {
        type: "success",
        key: "allocations.saved",
        values: {
          count: allocation.quantity,
          account: allocation.accountName,
          seats: seatsText(c, allocation.quantity),
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    return seatsRefusal(error, values, { fields: ["quantity"], notFoundOnForm: true });
  }
}

export const registryEditAllocationPage = definePage<EditData>({
  load: async (c) => {
    assertManages(c);
    const [account, found] = await Promise.all([
      accountDetails(c, accountIdOf(c)),
      allocationOfAccount(c, c.req.param("allocationId") ?? ""),
    ]);
    return { account, allocation: found.allocation, subscription: found.subscription };
  },
  Component: RegistryEditAllocation,
  action: saveAllocation,
  toaster: true,
});

// ── deallocate ────────────────────────────────────────────────────────────────────────

type Choice = { id: string; plan: string; quantity: number };
type DeallocateData = { account: AccountDetails; chosen: Allocation | null; choices: Choice[] };

function RegistryDeallocate({ data, form }: PageProps<DeallocateData>) {
  const { t, language } = usePage();
  const { account, chosen, choices } = data;
  const values = form?.values ?? {};
  const path = registrySeatsHref(
    account._id,
    chosen ? `/deallocate?allocationId=${encodeURIComponent(chosen.id)}` : "/deallocate",
  );
  const label = (allocation: Choice) =>
    String(
      t("allocations.takeBackQuestion", {
        count: allocation.quantity,
        seats: formatNumber(language, allocation.quantity),
        plan: allocation.plan,
        account: account.name,
      }),
    );
  const fields: SettingsField[] = chosen
    ? [
        { kind: "hidden", name: "allocationId", value: chosen.id },
        { kind: "hidden", name: "version", value: String(chosen.version) },
      ]
    : [
        {
          kind: "select",
          rule: "choice",
          name: "allocationId",
          label: String(t("allocations.fields.allocation")),
          value: values.allocationId ?? "",
          options: [
            { value: "", label: String(t("allocations.chooseAllocation")) },
            ...choices.map((c) => ({ value: c.id, label: label(c) })),
          ],
        },
      ];
  return (
    <SeatsFrame account={account} title={String(t("routes.deallocateFromAccount"))}>
      {chosen && <p className="mb-6 text-slate-800">{label(chosen)}</p>}
      {!chosen && choices.length === 0 ? (
        <StatusMessage tone="info">{t("allocations.nothingToTakeBack")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: path,
            submitLabel: String(t("subscriptions.deallocateConfirm")),
            variant: "danger",
            cancel: { href: registrySeatsHref(account._id), text: String(t("subscriptions.cancel")) },
            reload: { href: path, text: String(t("settings.reloadCurrent")) },
            errors: translatedErrors(form?.errors, t),
            fields,
          }}
        />
      )}
    </SeatsFrame>
  );
}

async function deallocate(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    if (!values.allocationId)
      return { ok: false, status: 400, form: { values, errors: { allocationId: "validation.ChooseOne" } } };
    const { allocation } = await allocationOfAccount(c, values.allocationId);
    await api(c).subscriptions.deallocate({ id: allocation.id, version: values.version ? Number(values.version) : undefined });
    return {
      ok: true,
      redirect: registrySeatsHref(accountIdOf(c)),
      flash: {
        type: "success",
        key: "subscriptions.deallocated",
        values: {
          count: allocation.quantity,
          seats: seatsText(c, allocation.quantity),
          account: allocation.accountName,
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    return seatsRefusal(error, values, { fields: ["allocationId"], notFoundOnForm: true });
  }
}

export const registryDeallocatePage = definePage<DeallocateData>({
  load: async (c) => {
    assertManages(c);
    const accountId = accountIdOf(c);
    const allocationId = c.req.query("allocationId");
    const [account, found, listed] = await Promise.all([
      accountDetails(c, accountId),
      allocationId ? allocationOfAccount(c, allocationId) : Promise.resolve(null),
      allocationId ? Promise.resolve(null) : api(c).subscriptions.forAccount({ accountId }),
    ]);
    return { account, chosen: found?.allocation ?? null, choices: listed?.items ?? [] };
  },
  Component: RegistryDeallocate,
  action: deallocate,
  toaster: true,
});
