import { usePage } from "../server/render/page-context";
import { PageHeader } from "../ui/page-header";
import { definePage, type PageProps } from "./types";

function Placeholder({ data: titleKey }: PageProps<string>) {
  const { t } = usePage();
  return (
    <>
      <PageHeader title={String(t(titleKey))} />
      <p className="text-slate-700">{t("placeholder.body")}</p>
    </>
  );
}

/**
 * A public route whose screen a later issue builds (sign-in, passwords, invitations,
 * simulator). It exists, answers 200 and says what it is for.
 */
export function placeholderPage(titleKey: string) {
  return definePage({ load: async () => titleKey, Component: Placeholder });
}
