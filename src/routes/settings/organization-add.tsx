import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { treeOptions } from "./organization-options";
import { formRefusal, postedValues, translatedErrors } from "./procedure-refusal";

/** Customers are the leaves of the tree: only the vendor and dealers have organizations below them. */
type Data = { parents: OrganizationInTree[]; parentId: string };

const PATH = "/settings/organizations/add";

function AddOrganization({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const values = form?.values ?? {};
  return (
    <SettingsLayout current="organizations" title={String(t("routes.addOrganization"))}>
      {data.parents.length === 0 ? (
        <StatusMessage tone="info">{t("organizations.noParent")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            action: PATH,
            submitLabel: String(t("organizations.add")),
            errors: translatedErrors(form?.errors, t),
            fields: [
              {
                kind: "select",
                name: "parentId",
                label: String(t("organizations.fields.parent")),
                hint: String(t("organizations.parentHint")),
                value: values.parentId ?? data.parentId,
                options: treeOptions(data.parents),
              },
              {
                kind: "text",
                name: "name",
                label: String(t("organizations.fields.name")),
                value: values.name ?? "",
                rule: "name",
                subject: "organizationName",
                autoComplete: "organization",
              },
              {
                kind: "select",
                name: "kind",
                label: String(t("organizations.fields.kind")),
                hint: String(t("organizations.kindHint")),
                value: values.kind ?? "customer",
                options: (["customer", "dealer"] as const).map((kind) => ({
                  value: kind,
                  label: String(t(`organizations.kinds.${kind}`)),
                })),
              },
            ],
          }}
        />
      )}
    </SettingsLayout>
  );
}

async function add(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const added = await api(c).organizations.add({
      parentId: values.parentId ?? "",
      name: values.name ?? "",
      kind: values.kind as "dealer" | "customer",
    });
    return {
      ok: true,
      redirect: "/settings/organizations",
      flash: { type: "success", key: "organizations.added", values: { name: added.name } },
    };
  } catch (error) {
    return formRefusal(error, values, { fields: ["parentId", "name", "kind"] });
  }
}

/** /settings/organizations/add[?parentId=]: a dealer or customer under an organization of the caller's tree. */
export const organizationAddPage = definePage<Data>({
  load: async (c) => {
    const parents = (await api(c).organizations.list()).filter((organization) => organization.kind !== "customer");
    const wanted = c.req.query("parentId");
    const parentId = parents.find((organization) => organization.id === wanted)?.id ?? parents[0]?.id ?? "";
    return { parents, parentId };
  },
  Component: AddOrganization,
  action: add,
  toaster: true,
});
