import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import type { ActionResult, RouteContext } from "../types";
import { postedValues } from "./procedure-refusal";
import { seatCount, seatsRefusal, seatsText } from "./seats-shared";

/*
 * The seat forms' actions, shared by the Settings screens and an account's Registry screens:
 * each frame says which account or subscription is fixed by its URL, how an allocation is
 * found (an account's frame checks it is that account's), and where to go afterwards.
 */

type Caller = ReturnType<typeof api>;
type Allocated = Awaited<ReturnType<Caller["subscriptions"]["allocate"]>>;
type Found = Awaited<ReturnType<Caller["subscriptions"]["allocation"]>>;
type Allocation = Found["allocation"];
type Updated = Awaited<ReturnType<Caller["subscriptions"]["updateAllocation"]>>;

/** Done: back to the frame's list, with a flash naming the seats, the account and the plan. */
function seatsChanged(
  c: RouteContext,
  redirect: string,
  key: string,
  count: number,
  allocation: { accountName: string; plan: string },
): ActionResult {
  return {
    ok: true,
    redirect,
    flash: {
      type: "success",
      key,
      values: { count, seats: seatsText(c, count), account: allocation.accountName, plan: allocation.plan },
    },
  };
}

/** Gives seats; `fixed` holds what the URL decides (the account or the subscription), the rest is posted. */
export async function allocateSeats(
  c: RouteContext,
  {
    fixed,
    fields,
    redirect,
  }: {
    fixed: { accountId?: string; subscriptionId?: string };
    fields: readonly string[];
    redirect: (allocation: Allocated) => string;
  },
): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const allocation = await api(c).subscriptions.allocate({
      subscriptionId: fixed.subscriptionId ?? values.subscriptionId ?? "",
      accountId: fixed.accountId ?? values.accountId ?? "",
      quantity: seatCount(values.quantity),
    });
    const count = seatCount(values.quantity);
    return seatsChanged(c, redirect(allocation), "subscriptions.allocated", count, allocation);
  } catch (error) {
    return seatsRefusal(error, values, { fields });
  }
}

/** The allocation as the settings screens find it (the procedure checks the tenant). */
const anyAllocation = (c: RouteContext) => (id: string) => api(c).subscriptions.allocation({ id });

/**
 * A screen's own lookup refusing the allocation (AppError, e.g. another account's) is the
 * not-found screen; a procedure's refusal goes on the form.
 */
function refused(error: unknown, values: Record<string, string>, fields: readonly string[]): ActionResult {
  if (error instanceof AppError) throw error;
  return seatsRefusal(error, values, { fields, notFoundOnForm: true });
}

/**
 * Sets an allocation's seat count (path parameter allocationId), at the posted version;
 * `check` first refuses an allocation the screen must not touch.
 */
export async function saveAllocationSeats(
  c: RouteContext,
  { check, redirect }: { check?: (id: string) => Promise<unknown>; redirect: (allocation: Updated) => string },
): Promise<ActionResult> {
  const values = await postedValues(c);
  const id = c.req.param("allocationId") ?? "";
  try {
    await check?.(id);
    const allocation = await api(c).subscriptions.updateAllocation({
      id,
      version: Number(values.version),
      quantity: seatCount(values.quantity),
    });
    return seatsChanged(c, redirect(allocation), "allocations.saved", allocation.quantity, allocation);
  } catch (error) {
    return refused(error, values, ["quantity"]);
  }
}

/** Takes the posted allocation's seats back (at its posted version when the form carries one). */
export async function deallocateSeats(
  c: RouteContext,
  { find = anyAllocation(c), redirect }: { find?: (id: string) => Promise<Found>; redirect: (allocation: Allocation) => string },
): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    if (!values.allocationId)
      return { ok: false, status: 400, form: { values, errors: { allocationId: "validation.ChooseOne" } } };
    const { allocation } = await find(values.allocationId);
    await api(c).subscriptions.deallocate({ id: allocation.id, version: values.version ? Number(values.version) : undefined });
    return seatsChanged(c, redirect(allocation), "subscriptions.deallocated", allocation.quantity, allocation);
  } catch (error) {
    return refused(error, values, ["allocationId"]);
  }
}
