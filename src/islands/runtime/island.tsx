import type React from "react";
import { createElement } from "react";
import { renderToString } from "react-dom/server.edge";
import { hasTranslation, pickMessages } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { type IslandName, type IslandProps, islands } from "../registry";
import { serializeProps } from "./props";

type Props<N extends IslandName> = {
  name: N;
  props: Omit<IslandProps<N>, "messages">;
};

/**
 * Renders an island on the server as its own React root (so its useId values match the
 * browser's), inside a marker that names it and carries its JSON props and the strings it
 * declared. The browser entry (client.ts) hydrates it with the same identifierPrefix.
 */
export function Island<N extends IslandName>({ name, props }: Props<N>) {
  const page = usePage();
  const id = page.islands.add(name);
  const definition = islands[name];
  // The registry pairs each island with its props type; the optional hook reads them as such.
  const propKeys = (definition as { propMessageKeys?: (p: typeof props) => string[] }).propMessageKeys?.(props) ?? [];
  const keys = [
    ...definition.messageKeys,
    ...propKeys.filter((key) => hasTranslation(page.language, key, page.settings.brandNamespace)),
  ];
  const fullProps: Record<string, unknown> = { ...props, messages: pickMessages(page.t, keys) };
  const json = serializeProps(name, fullProps);
  // The registry pairs each component with its props type; here they meet as plain JSON.
  const component = definition.component as React.ComponentType<Record<string, unknown>>;
  const html = renderToString(createElement(component, fullProps), { identifierPrefix: id });
  return (
    <div
      className="island"
      data-island={name}
      data-island-id={id}
      data-props={json}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own server rendering of the island
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
