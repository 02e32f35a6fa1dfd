import { allocateSeats, deallocateSeats, saveAllocationSeats } from "@/routes/settings/seat-actions";
import { AllocationEditForm, DeallocateForm, SeatsForm, seatsField, subscriptionField } from "@/routes/settings/seat-forms";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { StatusMessage } from "@/ui/status-message";
import { definePage, type PageProps, type RouteContext } from "../types";
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
        <SeatsForm
          action={registrySeatsHref(account._id, "/allocate")}
          submitLabel={String(t("subscriptions.allocate"))}
          cancelHref={registrySeatsHref(account._id)}
          form={form}
          fields={[subscriptionField(t, language, subscriptions, values.subscriptionId), seatsField(t, values.quantity ?? "")]}
        />
      )}
    </SeatsFrame>
  );
}

export const registryAllocatePage = definePage<AllocateData>({
  load: async (c) => {
    assertManages(c);
    const account = await accountDetails(c, accountIdOf(c));
    const choices = await api(c).subscriptions.allocationChoices({ orgId: account.orgId });
    return { account, subscriptions: choices.subscriptions };
  },
  Component: RegistryAllocate,
  action: (c) =>
    allocateSeats(c, {
      fixed: { accountId: accountIdOf(c) },
      fields: ["subscriptionId", "quantity"],
      redirect: () => registrySeatsHref(accountIdOf(c)),
    }),
  toaster: true,
});

// ── editAllocation/{allocationId} ───────────────────────────────────────────────────────

type EditData = { account: AccountDetails; allocation: Allocation; subscription: Subscription };

function RegistryEditAllocation({ data, form }: PageProps<EditData>) {
  const { t } = usePage();
  const { account, allocation, subscription } = data;
  return (
    <SeatsFrame account={account} title={String(t("routes.editAllocation"))}>
      <AllocationEditForm
        allocation={allocation}
        free={subscription.free}
        action={registrySeatsHref(account._id, `/editAllocation/${encodeURIComponent(allocation.id)}`)}
        cancelHref={registrySeatsHref(account._id)}
        form={form}
      />
    </SeatsFrame>
  );
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
  action: (c) =>
    saveAllocationSeats(c, {
      check: (id) => allocationOfAccount(c, id),
      redirect: () => registrySeatsHref(accountIdOf(c)),
    }),
  toaster: true,
});

// ── deallocate ────────────────────────────────────────────────────────────────────────

type Choice = { id: string; plan: string; quantity: number };
type DeallocateData = { account: AccountDetails; chosen: Allocation | null; choices: Choice[] };

function RegistryDeallocate({ data, form }: PageProps<DeallocateData>) {
  const { t } = usePage();
  const { account, chosen, choices } = data;
  return (
    <SeatsFrame account={account} title={String(t("routes.deallocateFromAccount"))}>
      <DeallocateForm
        chosen={chosen}
        choices={choices}
        accountName={account.name}
        action={registrySeatsHref(
          account._id,
          chosen ? `/deallocate?allocationId=${encodeURIComponent(chosen.id)}` : "/deallocate",
        )}
        cancelHref={registrySeatsHref(account._id)}
        form={form}
      />
    </SeatsFrame>
  );
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
  action: (c) =>
    deallocateSeats(c, {
      find: (id) => allocationOfAccount(c, id),
      redirect: () => registrySeatsHref(accountIdOf(c)),
    }),
  toaster: true,
});
