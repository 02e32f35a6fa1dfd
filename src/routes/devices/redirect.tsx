import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { definePage, type PageProps, type RouteContext } from "../types";
import { DeviceFrame } from "./frame";
import { deviceHref, type Frame } from "./paths";

type Data = { frame: Frame; account: AccountDetails | null; uid: string };

/**
 * redirect/{uid} (DESIGN §7): the device protocol delivers a redirect (check-in's `redirect`,
 * confirmed by `redirectAccepted`), but choosing the target here is not built yet; the page says
 * exactly that and nothing links to it. The connectivity test
 * (devices/test/{uid}) is the commands' real screen (src/routes/commands/test.tsx).
 */
function RedirectLater({ data }: PageProps<Data>) {
  const { t } = usePage();
  return (
    <DeviceFrame
      account={data.account}
      title={String(t("routes.redirectDevice"))}
      description={
        <a href={deviceHref(data.frame, "view", data.uid)} className="font-mono font-medium text-brand-700 hover:underline">
          {data.uid}
        </a>
      }
    >
      <p className="max-w-2xl text-sm text-slate-700">{t("devices.later.redirect")}</p>
    </DeviceFrame>
  );
}

function redirectPage(account: boolean) {
  return definePage<Data>({
    load: async (c: RouteContext) => {
      const frame = { accountId: account ? (c.req.param("accountId") ?? "") : null };
      const uid = c.req.param("uid") ?? "";
      // The radio must be one the user may see (another tenant's uid is the not-found screen).
      const [acc] = await Promise.all([
        frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
        api(c).devices.details({ uid, ...(frame.accountId ? { accountId: frame.accountId } : {}) }),
      ]);
      return { frame, account: acc, uid };
    },
    Component: RedirectLater,
  });
}

export const redirectDevicePage = redirectPage(false);
export const registryRedirectDevicePage = redirectPage(true);
