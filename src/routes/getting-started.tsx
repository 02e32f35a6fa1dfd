import { Fragment } from "react";
import { builtAreas, isBuilt, type ProductArea } from "../schema/features";
import { usePage } from "../server/render/page-context";
import { PageHeader } from "../ui/page-header";
import { definePage } from "./types";

/**
 * The guide's sections in reading order: anchor id, title key and the keys of its paragraphs.
 * A section or paragraph about an area without screens yet (src/schema/features.ts) is left
 * out, and a title that would promise it has a variant without it; flipping the area's flag
 * brings the text back, with nothing to change here.
 */
type Paragraph = { key: string; area?: ProductArea; unless?: ProductArea };
type Section = {
  id: string;
  title: (built: (area: ProductArea) => boolean) => string;
  paragraphs: Paragraph[];
  area?: ProductArea;
};

const p = (key: string, area?: ProductArea, unless?: ProductArea): Paragraph => ({ key, area, unless });

const sections: Section[] = [
  { id: "accounts", title: () => "title", paragraphs: [p("p1"), p("p2"), p("p3")] },
  { id: "network", title: () => "title", paragraphs: [p("p1"), p("p2"), p("p3")] },
  { id: "profiles", title: () => "title", paragraphs: [p("p1"), p("p2"), p("p3")] },
  {
    id: "deploy",
    title: (built) => (built("deployments") ? "title" : "titleReview"),
    paragraphs: [p("p1"), p("p2", "deployments"), p("p2Review", undefined, "deployments"), p("p3", "deployments")],
  },
  {
    id: "devices",
    title: (built) => (built("devices") ? "title" : "titleSeats"),
    paragraphs: [p("p1", "devices"), p("p2"), p("p3")],
  },
  { id: "commands", title: () => "title", paragraphs: [p("p1"), p("p2"), p("p3")], area: "commands" },
  { id: "roles", title: () => "title", paragraphs: [p("p1"), p("p2")] },
];

/** The sections and paragraphs of areas that exist. */
function guide(areas: Record<ProductArea, boolean> = builtAreas) {
  const built = (area: ProductArea) => isBuilt(area, areas);
  return sections
    .filter((section) => !section.area || built(section.area))
    .map((section) => ({
      id: section.id,
      title: `gettingStarted.${section.id}.${section.title(built)}`,
      paragraphs: section.paragraphs
        .filter((paragraph) => (!paragraph.area || built(paragraph.area)) && !(paragraph.unless && built(paragraph.unless)))
        .map((paragraph) => paragraph.key),
    }));
}

/** DESIGN.md §4, in the order of how much each role may do. */
const roles = ["owner", "admin", "configurator", "technician", "viewer", "caseAgent"] as const;

function RolesTable() {
  const { t } = usePage();
  return (
    <div className="relative my-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">
              {t("gettingStarted.roles.role")}
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              {t("gettingStarted.roles.may")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {roles.map((role) => (
            <tr key={role}>
              <th scope="row" className="px-4 py-2 text-left align-top font-medium whitespace-nowrap text-slate-900">
                {t(`gettingStarted.roles.${role}.name`)}
              </th>
              <td className="px-4 py-2 text-slate-700">{t(`gettingStarted.roles.${role}.may`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function GettingStarted() {
  const { t, settings } = usePage();
  const shown = guide();
  return (
    <>
      <PageHeader
        title={String(t("routes.gettingStarted"))}
        description={t("gettingStarted.lead", { title: settings.appTitle })}
      />
      <div className="flex flex-col gap-8 lg:flex-row-reverse lg:items-start lg:justify-between">
        <nav aria-labelledby="toc-heading" className="rounded-lg border border-slate-200 bg-white p-4 lg:sticky lg:top-4 lg:w-72">
          <h2 id="toc-heading" className="text-sm font-semibold tracking-wide text-slate-900 uppercase">
            {t("gettingStarted.toc")}
          </h2>
          <ol className="mt-2 flex list-decimal flex-col gap-1 pl-5 text-sm">
            {shown.map(({ id, title }) => (
              <li key={id}>
                <a href={`#${id}`} className="text-brand-700 hover:underline">
                  {t(title)}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="flex max-w-3xl flex-1 flex-col gap-8">
          {shown.map(({ id, title, paragraphs }) => (
            <section key={id} id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4">
              <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
                {t(title)}
              </h2>
              {paragraphs.map((paragraph) => (
                <Fragment key={paragraph}>
                  <p className="mt-3 leading-relaxed text-slate-700">{t(`gettingStarted.${id}.${paragraph}`)}</p>
                  {id === "roles" && paragraph === "p1" && <RolesTable />}
                </Fragment>
              ))}
            </section>
          ))}
        </article>
      </div>
    </>
  );
}

/** /getting-started: the fleet manager's guide, shown only when the documentation setting is on. */
export const gettingStartedPage = definePage({
  load: async (c) => (c.get("settings").showDocumentation ? undefined : c.notFound()),
  Component: GettingStarted,
});
