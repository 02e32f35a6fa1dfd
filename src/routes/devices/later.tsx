import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { definePage, type PageProps, type RouteContext } from "../types";
import { DeviceFrame } from "./frame";
import { deviceHref, type Frame } from "./paths";

type Data = { frame: Frame; account: AccountDetails | null; uid: string; screen: "redirect" | "test" };

/**
 * redirect/{uid} and test/{uid} (DESIGN §7): handing a radio to another server arrives with the
 * device protocol, the connectivity test with commands. Until then these pages say plainly what
 * they will do; nothing links to them.
 */
function Later({ data }: PageProps<Data>) {
  const { t } = usePage();
  return (
    <DeviceFrame
      account={data.account}
      title={String(t(data.screen === "redirect" ? "routes.redirectDevice" : "routes.testDevice"))}
      description={
        <a href={deviceHref(data.frame, "view", data.uid)} className="font-mono font-medium text-brand-700 hover:underline">
          {data.uid}
        </a>
      }
    >
      <p className="max-w-2xl text-sm text-slate-700">{t(`devices.later.${data.screen}`)}</p>
    </DeviceFrame>
  );
}

function laterPage(screen: Data["screen"], account: boolean) {
  return definePage<Data>({
    load: async (c: RouteContext) => {
      const frame = { accountId: account ? (c.req.param("accountId") ?? "") : null };
      const uid = c.req.param("uid") ?? "";
      // The radio must be one the user may see (another tenant's uid is the not-found screen).
      const [acc] = await Promise.all([
        frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
        api(c).devices.details({ uid, ...(frame.accountId ? { accountId: frame.accountId } : {}) }),
      ]);
      return { frame, account: acc, uid, screen };
    },
    Component: Later,
  });
}

export const redirectDevicePage = laterPage("redirect", false);
export const testDevicePage = laterPage("test", false);
export const registryRedirectDevicePage = laterPage("redirect", true);
export const registryTestDevicePage = laterPage("test", true);
