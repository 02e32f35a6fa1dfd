import { Island } from "@/islands/runtime/island";
import type { NetworkConfigView } from "@/schema/network-config";
import { api } from "@/server/api/procedures-route";
import { newId } from "@/server/data/db";
import { usePage } from "@/server/render/page-context";
import { type ActionResult, definePage, type PageProps, type RouteContext, tabTitle } from "../types";
import { EditAccountLayout, editHref } from "./edit-layout";
import { postedValues, refusal, translatedErrors } from "./form-errors";
import { type AddIntent, configFromValues, fieldOfIssue, modelFromValues, modelFromView } from "./network-form";

type Data = { accountId: string; accountName: string; version: number; config: NetworkConfigView };

const addIntents = new Set<string>(["addWifi", "addEndpoint"]);

function Network({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const href = editHref(data.accountId, "network");
  const values = form?.values;
  // Shown again after a post: what was typed (and one more row if asked); else what is stored.
  const model = values
    ? modelFromValues(values, data.config, addIntents.has(values.intent ?? "") ? (values.intent as AddIntent) : undefined)
    : modelFromView(data.version, data.config);
  return (
    <EditAccountLayout accountId={data.accountId} accountName={data.accountName} current="network">
      <p className="mb-6 max-w-3xl text-sm text-slate-700">{t("accounts.network.lead")}</p>
      <Island
        name="network-config-form"
        props={{ action: href, reloadHref: href, model, errors: translatedErrors(form?.errors, t) }}
      />
    </EditAccountLayout>
  );
}

/**
 * Saves the network settings on the version they were typed on. "Add another" (without
 * JavaScript) saves nothing: the form comes back with what was typed and one more row.
 */
async function saveNetwork(c: RouteContext): Promise<ActionResult> {
  const id = c.req.param("accountId") ?? "";
  const values = await postedValues(c);
  if (addIntents.has(values.intent ?? "")) return { ok: false, status: 200, form: { values, errors: {} } };
  const posted = configFromValues(values, () => newId("wifi"));
  try {
    await api(c).accounts.updateNetworkConfig({ id, version: Number(values.version), config: posted.config });
  } catch (error) {
    return refusal(error, values, { fieldOf: (path) => fieldOfIssue(path, posted) });
  }
  return { ok: true, redirect: editHref(id, "network"), flash: { type: "success", key: "accounts.networkSaved" } };
}

/** /accounts/edit/:accountId/network (edit-network-config): Wi-Fi, LTE, DNS and NTP servers, endpoints. */
export const accountNetworkPage = definePage<Data>({
  title: ({ accountName }, t) => tabTitle(t, accountName, "accounts.tabs.network", "routes.accountSettings"),
  load: async (c) => {
    const id = c.req.param("accountId") ?? "";
    const caller = api(c);
    const [account, network] = await Promise.all([caller.accounts.details({ id }), caller.accounts.networkConfig({ id })]);
    return { accountId: account._id, accountName: account.name, version: network.version, config: network.config };
  },
  Component: Network,
  action: saveNetwork,
  toaster: true,
});
