import { formatDateTime } from "../schema/format";
import { listMail, type OutboxMail } from "../server/data/mail-outbox";
import { isDemo } from "../server/env";
import { usePage } from "../server/render/page-context";
import { Button } from "../ui/button";
import { EmptyState } from "../ui/empty-state";
import { PageHeader } from "../ui/page-header";
import { definePage, type PageProps } from "./types";

type Data = { mail: OutboxMail[]; to: string };

/** Plain text with its web addresses as links, so a person can follow a reset or invitation link. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <>
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
          <a key={index} href={part} className="break-all text-brand-700 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Mailbox({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  return (
    <>
      <PageHeader title={String(t("mailbox.title"))} description={t("mailbox.intro")} />
      <form method="get" className="mb-6 flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="mailbox-to" className="text-sm font-medium text-slate-800">
            {t("mailbox.filter")}
          </label>
          <input
            id="mailbox-to"
            name="to"
            type="email"
            defaultValue={data.to}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          />
        </div>
        <Button type="submit" variant="white">
          {t("mailbox.apply")}
        </Button>
      </form>
      {data.mail.length === 0 ? (
        <EmptyState title={String(t("mailbox.empty"))} />
      ) : (
        <ol className="flex flex-col gap-4">
          {data.mail.map((mail) => (
            <li key={mail.id}>
              <article className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={`mail-${mail.id}`}>
                <h2 id={`mail-${mail.id}`} className="font-semibold text-slate-900">
                  {mail.subject}
                </h2>
                <p className="text-sm text-slate-600">
                  {t("mailbox.to", { address: mail.to })} ·{" "}
                  {t("mailbox.sent", { when: formatDateTime(language, mail.createdAt, "UTC") })}
                </p>
                <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">
                  <Linked text={mail.body} />
                </p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** The local demo's mailbox: what the embedded transport "sent". Absent when deployed. */
export const mailboxPage = definePage<Data>({
  load: async (c) => {
    if (!isDemo(c.env)) return c.notFound();
    const to = c.req.query("to")?.trim() ?? "";
    return { mail: await listMail(c.env.DB, { to: to || undefined }), to };
  },
  Component: Mailbox,
});
