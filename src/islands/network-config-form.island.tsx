import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { fieldMessage } from "@/schema/field-message-keys";
import type { EndpointRow, NetworkFormModel, WifiRow } from "../routes/accounts/network-form";
import type { NetworkPart } from "../schema/network-inheritance";
import { HOST_PATTERN, isPersonal, networkLimits as limits, type WifiSecurity, wifiSecurity } from "../schema/network-rules";
import { Button } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field, SelectField, TextareaField } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm, useFormSeed } from "./runtime/use-form";

/** One part of a site's or location's settings: inherited, or overridden at this level. */
export type PartInheritance = {
  /** Whether this level sets the part itself (its "override" box is ticked). */
  override: boolean;
  /** The box's label, naming the part and the level ("Override “DNS servers” for this site"). */
  label: string;
  /** What the level gets without an override, and from where ("From the account:"), then its lines. */
  inherited: string;
  lines: string[];
};

/** Present on sites and locations (not on the account): each part may inherit or override. */
export type NetworkInheritance = {
  parts: Record<NetworkPart, PartInheritance>;
  /** Said without JavaScript, where the fields stay visible: they count only when the box is ticked. */
  hint: string;
};

export type NetworkConfigFormProps = {
  messages: Messages;
  action: string;
  reloadHref: string;
  model: NetworkFormModel;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  inheritance?: NetworkInheritance;
};

type Translate = (key: string, values?: Record<string, string | number>) => string;

function isUrl(text: string): boolean {
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function isBlankWifi(values: Record<string, string>, n: number): boolean {
  return !values[`wifi.${n}.id`] && !(values[`wifi.${n}.ssid`] ?? "").trim() && !values[`wifi.${n}.passphrase`];
}

/**
 * The client rules (the schema's, from network-rules.ts); the server checks them again. Rows
 * removed are not in the state (with JavaScript there are no Remove boxes to look at).
 */
function validate(values: Record<string, string>, rows: WifiRow[], endpoints: EndpointRow[], t: Translate): FieldErrors {
  const errors: FieldErrors = {};
  rows.forEach((row, n) => {
    if (isBlankWifi(values, n)) return;
    const ssid = (values[`wifi.${n}.ssid`] ?? "").trim();
    const passphrase = values[`wifi.${n}.passphrase`] ?? "";
    const priority = (values[`wifi.${n}.priority`] ?? "").trim();
    if (!ssid) errors[`wifi.${n}.ssid`] = t(fieldMessage("ssid", "required"));
    else if (ssid.length > limits.ssid) errors[`wifi.${n}.ssid`] = t("validation.SsidTooLong");
    if (passphrase.length > limits.passphraseMax) errors[`wifi.${n}.passphrase`] = t("validation.PassphraseTooLong");
    else if (isPersonal(row.security) && passphrase && passphrase.length < limits.passphraseMin)
      errors[`wifi.${n}.passphrase`] = t("validation.PassphraseTooShort");
    else if (isPersonal(row.security) && !passphrase && !row.hasPassphrase)
      errors[`wifi.${n}.passphrase`] = t("validation.PassphraseRequired");
    if (priority && !(/^\d+$/.test(priority) && Number(priority) <= limits.priorityMax))
      errors[`wifi.${n}.priority`] = t("validation.PriorityRange");
  });
  for (const list of ["dnsServers", "ntpServers"]) {
    const servers = (values[list] ?? "").split(/[\s,]+/).filter(Boolean);
    if (servers.some((server) => server.length > 253 || !HOST_PATTERN.test(server))) errors[list] = t("validation.HostInvalid");
    else if (servers.length > limits.servers) errors[list] = t("validation.TooManyServers");
  }
  endpoints.forEach((_, n) => {
    const name = (values[`endpoints.${n}.name`] ?? "").trim();
    const url = (values[`endpoints.${n}.url`] ?? "").trim();
    if (!name && !url) return;
    if (!name) errors[`endpoints.${n}.name`] = t(fieldMessage("endpointName", "required"));
    else if (name.length > limits.endpointName) errors[`endpoints.${n}.name`] = t(fieldMessage("endpointName", "tooLong"));
    if (!isUrl(url)) errors[`endpoints.${n}.url`] = t("validation.UrlInvalid");
  });
  if ((values["lte.apn"] ?? "").trim().length > limits.apn) errors["lte.apn"] = t(fieldMessage("apn", "tooLong"));
  return errors;
}

function Legend({ children }: { children: string }) {
  return <legend className="mb-2 text-lg font-semibold text-slate-900">{children}</legend>;
}

/** Remove a row: at once with JavaScript, or a checkbox honoured on save without it. */
function RemoveControl({
  enhanced,
  name,
  label,
  checked,
  onRemove,
}: {
  enhanced: boolean;
  name: string;
  label: string;
  checked: boolean;
  onRemove: () => void;
}) {
  if (enhanced) {
    return (
      <Button variant="white" size="sm" onClick={onRemove}>
        {label}
      </Button>
    );
  }
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input type="checkbox" name={name} defaultChecked={checked} className="size-4" />
      {label}
    </label>
  );
}

/**
 * A part's fields with, on sites and locations, what it inherits and a box to override it.
 * Unticked with JavaScript, the fields are hidden and disabled (so they are neither posted nor
 * validated) but keep what was typed; without it they stay, and the server ignores them.
 */
function Overridable({
  part,
  inheritance,
  enhanced,
  children,
}: {
  part: NetworkPart;
  inheritance?: NetworkInheritance;
  enhanced: boolean;
  children: ReactNode;
}) {
  const info = inheritance?.parts[part];
  const [override, setOverride] = useState(info?.override ?? true);
  // Ticked or unticked before hydration, the box stays as the person left it (and its fields shown or not).
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => setOverride(!!box.current?.checked), []);
  if (!inheritance || !info) return children;
  const idle = enhanced && !override;
  return (
    <div className="flex flex-col gap-3" data-part={part}>
      <div className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
        <p className="font-medium text-slate-800">{info.inherited}</p>
        {info.lines.length > 0 && (
          <ul className="mt-1 list-disc pl-5">
            {info.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <input
          type="checkbox"
          ref={box}
          name={`override.${part}`}
          checked={override}
          onChange={(event) => setOverride(event.currentTarget.checked)}
          className="size-4"
        />
        {info.label}
      </label>
      {!enhanced && <p className="text-sm text-slate-600">{inheritance.hint}</p>}
      <fieldset disabled={idle} hidden={idle} className="flex min-w-0 flex-col gap-4">
        {children}
      </fieldset>
    </div>
  );
}

/**
 * The network settings of an account, site or location. Without JavaScript it is a plain form whose "Add another"
 * buttons post it back for one more empty row (nothing typed is lost) and whose rows have a
 * Remove checkbox; with it, rows are added and removed in place and the form posts in the
 * background. Passphrases and the LTE password are write-only: stored ones are never shown.
 */
export default function NetworkConfigForm({
  messages,
  action,
  reloadHref,
  model,
  errors: serverErrors,
  inheritance,
}: NetworkConfigFormProps) {
  const t: Translate = (key, values) => translate(messages, key, values);
  const [wifi, setWifi] = useState(model.wifi);
  const [endpoints, setEndpoints] = useState(model.endpoints);
  const formElement = useRef<HTMLFormElement>(null);
  const nextKey = useRef(0);
  const focusAfterAdd = useRef<string | null>(null);
  const rows = useRef({ wifi, endpoints });
  rows.current = { wifi, endpoints };

  const [validateValues] = useState(
    () => (values: Record<string, string>) => validate(values, rows.current.wifi, rows.current.endpoints, t),
  );
  const form = useEnhancedForm({
    validate: validateValues,
    networkErrorText: t("accounts.networkError"),
    initialErrors: serverErrors,
  });
  const { errors, onSubmit } = form;

  // A network's security chosen, or a Remove ticked, before hydration stays (the row goes, as its button does).
  const enhanced = useFormSeed(formElement, (read) => {
    const kept = (prefix: string) => (_: unknown, n: number) => !read(`${prefix}.${n}.remove`)?.checked;
    // A select holds one of its options: the security read is one of wifiSecurity.
    const security = (row: WifiRow, n: number) => (read(`wifi.${n}.security`)?.value ?? row.security) as WifiSecurity;
    setWifi(wifi.map((row, n) => ({ ...row, security: security(row, n) })).filter(kept("wifi")));
    setEndpoints(endpoints.filter(kept("endpoints")));
  });
  useEffect(() => {
    if (!focusAfterAdd.current) return;
    const field = formElement.current?.elements.namedItem(focusAfterAdd.current);
    if (field instanceof HTMLElement) field.focus();
    focusAfterAdd.current = null;
  });

  function addWifi(event: MouseEvent) {
    event.preventDefault();
    nextKey.current += 1;
    focusAfterAdd.current = `wifi.${wifi.length}.ssid`;
    setWifi([
      ...wifi,
      {
        key: `new-w${nextKey.current}`,
        id: "",
        ssid: "",
        security: "wpa2-personal",
        passphrase: "",
        priority: "",
        hasPassphrase: false,
        remove: false,
      },
    ]);
  }

  function addEndpoint(event: MouseEvent) {
    event.preventDefault();
    nextKey.current += 1;
    focusAfterAdd.current = `endpoints.${endpoints.length}.name`;
    setEndpoints([...endpoints, { key: `new-e${nextKey.current}`, name: "", url: "", remove: false }]);
  }

  function setSecurity(key: string, security: WifiSecurity) {
    setWifi(wifi.map((row) => (row.key === key ? { ...row, security } : row)));
  }

  function passphraseHint(row: WifiRow): string {
    if (row.security === "open") return t("accounts.network.passphraseOpen");
    return row.hasPassphrase ? t("accounts.network.passphraseKeep") : t("accounts.network.passphraseHint");
  }

  return (
    <form
      ref={formElement}
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex flex-col gap-8"
    >
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} reload={{ href: reloadHref }} autoFocus={form.fromServer} />
      {/* Enter in a field saves: the first submit button is the form's default. */}
      <button type="submit" name="intent" value="save" hidden tabIndex={-1} />
      <input type="hidden" name="version" value={model.version} />

      <fieldset className="flex flex-col gap-4">
        <Legend>{t("accounts.network.wifiHeading")}</Legend>
        <p className="text-sm text-slate-600">{t("accounts.network.wifiLead")}</p>
        <Overridable part="wifi" inheritance={inheritance} enhanced={enhanced}>
          {errors.wifi && (
            <p id="field-wifi" className="text-sm font-medium text-red-700">
              {errors.wifi}
            </p>
          )}
          {wifi.map((row, n) => (
            <fieldset key={row.key} className="rounded-lg border border-slate-200 bg-white p-4">
              <legend className="px-1 text-sm font-semibold text-slate-800">
                {t("accounts.network.networkLegend", { number: n + 1 })}
              </legend>
              <input type="hidden" name={`wifi.${n}.id`} value={row.id} />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label={t("accounts.network.ssid")}
                  name={`wifi.${n}.ssid`}
                  defaultValue={row.ssid}
                  maxLength={limits.ssid}
                  autoComplete="off"
                  error={errors[`wifi.${n}.ssid`]}
                />
                <SelectField
                  label={t("accounts.network.security")}
                  name={`wifi.${n}.security`}
                  value={row.security}
                  onChange={(event) => setSecurity(row.key, event.currentTarget.value as WifiSecurity)}
                  options={wifiSecurity.map((security) => ({
                    value: security,
                    label: t(`accounts.network.securities.${security}`),
                  }))}
                />
                <Field
                  label={t("accounts.network.passphrase")}
                  name={`wifi.${n}.passphrase`}
                  type="password"
                  autoComplete="new-password"
                  defaultValue={row.passphrase}
                  maxLength={limits.passphraseMax}
                  disabled={enhanced && row.security === "open"}
                  hint={passphraseHint(row)}
                  error={errors[`wifi.${n}.passphrase`]}
                />
                <Field
                  label={t("accounts.network.priority")}
                  name={`wifi.${n}.priority`}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={limits.priorityMax}
                  placeholder="0"
                  defaultValue={row.priority}
                  hint={t("accounts.network.priorityHint")}
                  error={errors[`wifi.${n}.priority`]}
                />
              </div>
              <div className="mt-3">
                <RemoveControl
                  enhanced={enhanced}
                  name={`wifi.${n}.remove`}
                  label={t("accounts.network.removeNetwork")}
                  checked={row.remove}
                  onRemove={() => setWifi(wifi.filter((other) => other.key !== row.key))}
                />
              </div>
            </fieldset>
          ))}
          {wifi.length < limits.wifiNetworks && (
            <div>
              <Button type="submit" name="intent" value="addWifi" variant="secondary" onClick={addWifi}>
                {t("accounts.network.addNetwork")}
              </Button>
            </div>
          )}
        </Overridable>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <Legend>{t("accounts.network.lteHeading")}</Legend>
        <Overridable part="lte" inheritance={inheritance} enhanced={enhanced}>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label={t("accounts.network.apn")}
              name="lte.apn"
              defaultValue={model.lte.apn}
              maxLength={limits.apn}
              autoComplete="off"
              error={errors["lte.apn"]}
            />
            <Field
              label={t("accounts.network.username")}
              name="lte.username"
              defaultValue={model.lte.username}
              maxLength={limits.lteCredential}
              autoComplete="off"
              error={errors["lte.username"]}
            />
            <Field
              label={t("accounts.network.password")}
              name="lte.password"
              type="password"
              autoComplete="new-password"
              defaultValue={model.lte.password}
              maxLength={limits.lteCredential}
              hint={model.lte.hasPassword ? t("accounts.network.passwordKeep") : undefined}
              error={errors["lte.password"]}
            />
          </div>
        </Overridable>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <Legend>{t("accounts.network.serversHeading")}</Legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <Overridable part="dnsServers" inheritance={inheritance} enhanced={enhanced}>
            <TextareaField
              label={t("accounts.network.dns")}
              name="dnsServers"
              rows={4}
              defaultValue={model.dnsServers}
              spellCheck={false}
              hint={t("accounts.network.serversHint")}
              error={errors.dnsServers}
            />
          </Overridable>
          <Overridable part="ntpServers" inheritance={inheritance} enhanced={enhanced}>
            <TextareaField
              label={t("accounts.network.ntp")}
              name="ntpServers"
              rows={4}
              defaultValue={model.ntpServers}
              spellCheck={false}
              hint={t("accounts.network.serversHint")}
              error={errors.ntpServers}
            />
          </Overridable>
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <Legend>{t("accounts.network.endpointsHeading")}</Legend>
        <p className="text-sm text-slate-600">{t("accounts.network.endpointsLead")}</p>
        <Overridable part="endpoints" inheritance={inheritance} enhanced={enhanced}>
          {errors.endpoints && (
            <p id="field-endpoints" className="text-sm font-medium text-red-700">
              {errors.endpoints}
            </p>
          )}
          {endpoints.map((row, n) => (
            <fieldset key={row.key} className="rounded-lg border border-slate-200 bg-white p-4">
              <legend className="px-1 text-sm font-semibold text-slate-800">
                {t("accounts.network.endpointLegend", { number: n + 1 })}
              </legend>
              <div className="grid gap-4 sm:grid-cols-[1fr_2fr]">
                <Field
                  label={t("accounts.network.endpointName")}
                  name={`endpoints.${n}.name`}
                  defaultValue={row.name}
                  maxLength={limits.endpointName}
                  autoComplete="off"
                  error={errors[`endpoints.${n}.name`]}
                />
                <Field
                  label={t("accounts.network.endpointUrl")}
                  name={`endpoints.${n}.url`}
                  type="url"
                  defaultValue={row.url}
                  maxLength={limits.url}
                  placeholder="https://"
                  error={errors[`endpoints.${n}.url`]}
                />
              </div>
              <div className="mt-3">
                <RemoveControl
                  enhanced={enhanced}
                  name={`endpoints.${n}.remove`}
                  label={t("accounts.network.removeEndpoint")}
                  checked={row.remove}
                  onRemove={() => setEndpoints(endpoints.filter((other) => other.key !== row.key))}
                />
              </div>
            </fieldset>
          ))}
          {endpoints.length < limits.endpoints && (
            <div>
              <Button type="submit" name="intent" value="addEndpoint" variant="secondary" onClick={addEndpoint}>
                {t("accounts.network.addEndpoint")}
              </Button>
            </div>
          )}
        </Overridable>
      </fieldset>

      <div>
        <Button type="submit" name="intent" value="save" pending={form.pending}>
          {t("accounts.network.submit")}
        </Button>
      </div>
    </form>
  );
}
