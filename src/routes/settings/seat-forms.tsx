import type { ReactNode } from "react";
import { Island } from "@/islands/runtime/island";
import type { SettingsField } from "@/islands/settings-form.island";
import { formatNumber } from "@/schema/format";
import type { Language } from "@/schema/languages";
import { usePage } from "@/server/render/page-context";
import type { ButtonVariant } from "@/ui/button";
import { StatusMessage } from "@/ui/status-message";
import type { PageProps } from "../types";
import { translatedErrors } from "./procedure-refusal";

/*
 * The seat forms (allocate, edit an allocation, take seats back) as both frames show them:
 * Settings › Subscriptions/Allocations and an account's Registry › Subscriptions. Each frame
 * says where the form posts and where Cancel leads; the fields and wording are the same.
 */

type FormState = PageProps<unknown>["form"];
type Translate = ReturnType<typeof usePage>["t"];

/** The settings-form island with the seat screens' network message, Cancel and (after a stale save) Reload. */
export function SeatsForm({
  action,
  submitLabel,
  cancelHref,
  fields,
  form,
  reload = false,
  variant,
}: {
  action: string;
  submitLabel: string;
  cancelHref: string;
  fields: SettingsField[];
  form: FormState;
  /** Offer to load the page again (forms that carry a version). */
  reload?: boolean;
  variant?: ButtonVariant;
}) {
  const { t } = usePage();
  return (
    <Island
      name="settings-form"
      props={{
        networkErrorKey: "subscriptions.networkError",
        action,
        submitLabel,
        variant,
        cancel: { href: cancelHref, text: String(t("subscriptions.cancel")) },
        reload: reload ? { href: action, text: String(t("settings.reloadCurrent")) } : undefined,
        errors: translatedErrors(form?.errors, t),
        fields,
      }}
    />
  );
}

type AccountChoice = { id: string; name: string };
type SubscriptionChoice = { id: string; plan: string; organizationName: string; free: number };

/** The account that receives seats. */
export function accountField(t: Translate, accounts: readonly AccountChoice[], value: string, hint?: string): SettingsField {
  return {
    kind: "select",
    rule: "choice",
    name: "accountId",
    label: String(t("allocations.fields.account")),
    hint,
    value,
    options: [
      { value: "", label: String(t("allocations.chooseAccount")) },
      ...accounts.map((account) => ({ value: account.id, label: account.name })),
    ],
  };
}

/** The subscription whose seats are given; a single one is chosen already. */
export function subscriptionField(
  t: Translate,
  language: Language,
  subscriptions: readonly SubscriptionChoice[],
  value: string | undefined,
): SettingsField {
  return {
    kind: "select",
    rule: "choice",
    name: "subscriptionId",
    label: String(t("allocations.fields.subscription")),
    value: value ?? (subscriptions.length === 1 ? (subscriptions[0]?.id ?? "") : ""),
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
  };
}

/** How many seats. */
export function seatsField(t: Translate, value: string, hint?: string): SettingsField {
  return { kind: "number", name: "quantity", label: String(t("allocations.fields.seats")), hint, value, rule: "seats" };
}

type HeldSeats = { id: string; version: number; quantity: number; accountName: string; plan: string };

/** What an allocation holds and how many more it could, then its seat count with the version it was read at. */
export function AllocationEditForm({
  allocation,
  free,
  action,
  cancelHref,
  form,
}: {
  allocation: HeldSeats;
  /** The subscription's free seats (negative when it was cut below what is allocated). */
  free: number;
  action: string;
  cancelHref: string;
  form: FormState;
}) {
  const { t, language } = usePage();
  const values = form?.values ?? {};
  const upTo = allocation.quantity + Math.max(free, 0);
  return (
    <>
      <p className="mb-6 max-w-xl text-slate-800">
        {t("allocations.holds", {
          count: allocation.quantity,
          account: allocation.accountName,
          seats: formatNumber(language, allocation.quantity),
          plan: allocation.plan,
        })}{" "}
        {t("allocations.moreFree", { count: Math.max(free, 0), free: formatNumber(language, free) })}
      </p>
      <SeatsForm
        action={action}
        submitLabel={String(t("subscriptions.save"))}
        cancelHref={cancelHref}
        form={form}
        reload
        fields={[
          { kind: "hidden", name: "version", value: values.version ?? String(allocation.version) },
          seatsField(
            t,
            values.quantity ?? String(allocation.quantity),
            String(t("allocations.seatsUpTo", { count: upTo, max: formatNumber(language, upTo) })),
          ),
        ]}
      />
    </>
  );
}

type TakeBackChoice = { id: string; plan: string; quantity: number; accountName?: string };

/**
 * Takes seats back: one allocation to confirm (posted with its version), or a choice among
 * several. `accountName` names the account where the choices do not (an account's own frame).
 */
export function DeallocateForm({
  chosen,
  choices,
  action,
  cancelHref,
  form,
  accountName,
}: {
  chosen: (TakeBackChoice & { version: number }) | null;
  choices: readonly TakeBackChoice[];
  action: string;
  cancelHref: string;
  form: FormState;
  accountName?: string;
}): ReactNode {
  const { t, language } = usePage();
  const values = form?.values ?? {};
  const label = (allocation: TakeBackChoice) =>
    String(
      t("allocations.takeBackQuestion", {
        count: allocation.quantity,
        seats: formatNumber(language, allocation.quantity),
        plan: allocation.plan,
        account: accountName ?? allocation.accountName,
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
            ...choices.map((choice) => ({ value: choice.id, label: label(choice) })),
          ],
        },
      ];
  return (
    <>
      {chosen && <p className="mb-6 max-w-xl text-slate-800">{label(chosen)}</p>}
      {!chosen && choices.length === 0 ? (
        <StatusMessage tone="info">{t("allocations.nothingToTakeBack")}</StatusMessage>
      ) : (
        <SeatsForm
          action={action}
          submitLabel={String(t("subscriptions.deallocateConfirm"))}
          variant="danger"
          cancelHref={cancelHref}
          form={form}
          reload
          fields={fields}
        />
      )}
    </>
  );
}
