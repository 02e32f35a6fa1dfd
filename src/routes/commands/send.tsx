import { Island } from "@/islands/runtime/island";
import { commandTypes, expiryChoices } from "@/schema/fleet/command-kinds";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { formRefusal, postedValues, translatedErrors } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { CommandsFrame } from "./frame";
import { commandHref, historyHref, sendHref } from "./paths";
import { historyOf, type PageScope, pageScope, uidParam } from "./scope";
import { expiryFromForm, paramsFromForm, sendFields, typeFromForm } from "./send-values";

type Data = { scope: PageScope; uid: string; name: string };

function SendCommand({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { scope, uid } = data;
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("routes.sendCommand"))}
        description={t("commands.sendLead", { uid: data.name ? `${data.name} (${uid})` : uid })}
        actions={
          <ButtonLink href={historyHref(scope, uid)} variant="white" size="sm">
            {t("commands.detail.back")}
          </ButtonLink>
        }
      />
      <Island
        name="command-form"
        props={{
          action: sendHref(scope, uid),
          types: [...commandTypes],
          expiryChoices: [...expiryChoices],
          values: form?.values ?? {},
          errors: translatedErrors(form?.errors, t),
          uid,
          submitLabel: String(t("commands.form.submit")),
        }}
      />
    </CommandsFrame>
  );
}

async function send(c: RouteContext): Promise<ActionResult> {
  const scope = await pageScope(c);
  const uid = uidParam(c);
  const posted = await postedValues(c);
  const type = typeFromForm(posted);
  try {
    const sent = await api(c).commands.send({
      uid,
      ...(scope.accountId ? { accountId: scope.accountId } : {}),
      type,
      params: paramsFromForm(type, posted),
      ...(expiryFromForm(posted) !== undefined ? { expiryHours: expiryFromForm(posted) } : {}),
      ...(type === "stun" ? { confirmUid: posted.confirmUid ?? "" } : {}),
    });
    return {
      ok: true,
      redirect: commandHref(scope, uid, sent.id),
      flash: { type: "success", key: "commands.sentFlash", values: { uid } },
    };
  } catch (error) {
    return formRefusal(error, posted, { fields: sendFields });
  }
}

/** {uid}/send-command (manage-devices): one command to one radio, with and without JavaScript. */
export const sendCommandPage = definePage<Data>({
  load: async (c) => {
    const scope = await pageScope(c);
    // The history's first row proves the caller may see the radio, and names it.
    const page = await historyOf(c, scope, uidParam(c), 1);
    return { scope, uid: page.device.uid, name: page.device.name };
  },
  Component: SendCommand,
  action: send,
  toaster: true,
});
