import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { isProfileType, type ProfileType } from "@/schema/profiles";
import { api } from "@/server/api/procedures-route";
import type { Total } from "@/server/data/keyset";
import type { Profile, ProfileSummary } from "@/server/data/profiles";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { ProfileEditor, profileAction } from "./editor";
import { ListCount, ListPager, SearchForm, TypeTabs } from "./list-parts";
import { notFound, templateOfType } from "./load";
import {
  cursorInput,
  lostCursor,
  PAGE_SIZE,
  type ProfilesQuery,
  parseProfilesQuery,
  profilesListHref,
  sortLink,
  templatesHref,
} from "./paths";
import { ProfilesTable } from "./profiles-table";

/*
 * /devices/profiles/{profileType} (manage-devices): the caller's organization's profile
 * templates, starting points an account profile can be made from. A template reaches no radio
 * by itself, so its changes are logged but not "changes to deploy".
 */

function typeOf(c: RouteContext): ProfileType {
  const type = c.req.param("profileType");
  if (!isProfileType(type)) throw notFound(c, "errors.profileTypeNotFound");
  return type;
}

function orgIdOf(c: RouteContext): string {
  return c.get("user")?.orgId ?? "";
}

// The list

type ListData = {
  type: ProfileType;
  query: ProfilesQuery;
  items: ProfileSummary[];
  total: Total;
  next: string | null;
  previous: string | null;
};

function TemplatesList({ data }: PageProps<ListData>) {
  const { t } = usePage();
  const { type, query, items, total } = data;
  const base = templatesHref(type);
  const add = <ButtonLink href={`${base}/add`}>{t("profiles.templates.add")}</ButtonLink>;
  return (
    <>
      <PageHeader title={String(t("routes.profileTemplates"))} description={t("profiles.templates.lead")} actions={add} />
      <TypeTabs current={type} withAll={false} hrefOf={(tab) => templatesHref(tab ?? type)} />
      {total.count === 0 && !query.q ? (
        <EmptyState
          title={String(t("profiles.templates.empty"))}
          description={String(t("profiles.templates.emptyHelp"))}
          action={add}
        />
      ) : (
        <>
          <SearchForm action={base} query={query} typeInPath />
          <ListCount total={total} search={query.q} />
          {items.length === 0 ? (
            <EmptyState title={String(t("profiles.list.noMatch"))} />
          ) : (
            <ProfilesTable
              rows={items}
              timeZone="UTC"
              showType={false}
              showUsage={false}
              sorting={{ name: sortLink(base, query, "name", true), updated: sortLink(base, query, "updated", true) }}
              editHref={(p) => `${base}/edit/${encodeURIComponent(p.id)}`}
              deleteHref={(p) => `${base}/delete/${encodeURIComponent(p.id)}`}
            />
          )}
          <ListPager base={base} query={query} next={data.next} previous={data.previous} typeInPath />
        </>
      )}
    </>
  );
}

export const templatesListPage = definePage<ListData>({
  load: async (c) => {
    const type = typeOf(c);
    const query = { ...parseProfilesQuery(new URL(c.req.url)), type };
    const result = await api(c).profiles.list({
      orgId: orgIdOf(c),
      type,
      search: query.q,
      sort: query.sort,
      ...cursorInput(query),
      pageSize: PAGE_SIZE,
    });
    if (lostCursor(query, result)) return c.redirect(profilesListHref(templatesHref(type), query, {}, true), 302);
    const { items, total, next, previous } = result;
    return { type, query, items, total, next, previous };
  },
  Component: TemplatesList,
  toaster: true,
});

/** /devices/profiles: the device settings templates (spec §2). */
export const templatesRedirectPage = definePage({
  load: async (c) => c.redirect(templatesHref("device"), 302),
  Component: () => null,
});

// Add and edit

function saved(key: string) {
  return (profile: { name: string; type: ProfileType }): ActionResult => ({
    ok: true,
    redirect: templatesHref(profile.type),
    flash: { type: "success", key, values: { name: profile.name } },
  });
}

type AddData = { type: ProfileType };

function AddTemplate({ data, form }: PageProps<AddData>) {
  const { t } = usePage();
  const base = templatesHref(data.type);
  return (
    <>
      <PageHeader
        title={String(t("routes.addProfileTemplate"))}
        description={t("profiles.add.leadOfType", { type: t(`profiles.types.${data.type}`) })}
      />
      <ProfileEditor
        type={data.type}
        action={`${base}/add`}
        cancelHref={base}
        submitLabel={String(t("profiles.templates.submitAdd"))}
        form={form}
      />
    </>
  );
}

export const addTemplatePage = definePage<AddData>({
  load: async (c) => ({ type: typeOf(c) }),
  Component: AddTemplate,
  action: (c) => {
    typeOf(c);
    return profileAction(
      c,
      (input) => api(c).profiles.addTemplate({ ...input, orgId: orgIdOf(c) }),
      saved("profiles.templates.added"),
    );
  },
  toaster: true,
});

type OneData = { template: Profile };

function EditTemplate({ data, form }: PageProps<OneData>) {
  const { t } = usePage();
  const { template } = data;
  const base = templatesHref(template.type);
  const here = `${base}/edit/${encodeURIComponent(template.id)}`;
  return (
    <>
      <PageHeader
        title={String(t("routes.editProfileTemplate"))}
        description={t("profiles.edit.lead", { name: template.name, type: t(`profiles.types.${template.type}`) })}
        actions={
          <ButtonLink href={`${base}/delete/${encodeURIComponent(template.id)}`} variant="danger">
            {t("profiles.templates.delete")}
          </ButtonLink>
        }
      />
      <ProfileEditor
        type={template.type}
        action={here}
        cancelHref={base}
        submitLabel={String(t("profiles.edit.submit"))}
        stored={template}
        form={form}
      />
    </>
  );
}

async function loadTemplate(c: RouteContext): Promise<OneData> {
  return { template: await templateOfType(c, typeOf(c), c.req.param("profileId") ?? "") };
}

export const editTemplatePage = definePage<OneData>({
  load: loadTemplate,
  Component: EditTemplate,
  action: async (c) => {
    const { template } = await loadTemplate(c);
    return profileAction(
      c,
      (input) => api(c).profiles.updateTemplate({ ...input, id: template.id }),
      saved("profiles.templates.saved"),
    );
  },
  toaster: true,
});

// Delete

function DeleteTemplate({ data }: PageProps<OneData>) {
  const { t } = usePage();
  const { template } = data;
  const base = templatesHref(template.type);
  return (
    <div className="max-w-2xl">
      <PageHeader title={String(t("routes.deleteProfileTemplate"))} />
      <p className="text-slate-800">{t("profiles.templates.deleteQuestion", { name: template.name })}</p>
      <p className="mt-2 text-sm text-slate-600">{t("profiles.templates.deleteHelp")}</p>
      <div className="mt-6 flex flex-wrap items-start gap-3">
        <Island
          name="confirm-form"
          props={{
            action: `${base}/delete/${encodeURIComponent(template.id)}`,
            label: String(t("profiles.templates.confirmDelete")),
            srLabel: template.name,
            hidden: { version: String(template.version) },
          }}
        />
        <ButtonLink href={`${base}/edit/${encodeURIComponent(template.id)}`} variant="white" size="sm">
          {t("profiles.delete.cancel")}
        </ButtonLink>
      </div>
    </div>
  );
}

export const deleteTemplatePage = definePage<OneData>({
  load: loadTemplate,
  Component: DeleteTemplate,
  action: async (c) => {
    const { template } = await loadTemplate(c);
    const posted = await postedValues(c);
    const base = templatesHref(template.type);
    try {
      await api(c).profiles.deleteTemplate({ id: template.id, version: Number(posted.version ?? 0) || 0 });
    } catch (error) {
      if (error instanceof TRPCError && error.code === "CONFLICT") {
        return {
          ok: true,
          redirect: `${base}/delete/${encodeURIComponent(template.id)}`,
          flash: { type: "error", key: "errors.staleEdit" },
        };
      }
      throw error;
    }
    return {
      ok: true,
      redirect: base,
      flash: { type: "success", key: "profiles.templates.deleted", values: { name: template.name } },
    };
  },
  toaster: true,
});
