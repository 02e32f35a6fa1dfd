import { z } from "zod";
import type { FormSpec } from "./form-spec";
import { choice, repeatedAt, SHORT_NAME_MAX, shortName, wholeNumber } from "./zod-fields";

/**
 * "Contacts": the talk groups and private (one-to-one) contacts a digital radio can call.
 * IDs are DMR IDs, 1 to 16,776,415 (above are reserved for all-calls and the network).
 */
export const contactLimits = { contacts: 200, idMin: 1, idMax: 16_776_415 } as const;
export const callTypes = ["group", "private"] as const;

const contact = z.object({
  name: shortName,
  callType: choice(callTypes),
  id: wholeNumber("validation.ContactIdRange", contactLimits.idMin, contactLimits.idMax),
});

export const contactsSettings = z
  .object({
    contacts: z.array(contact).min(1, "validation.ContactsRequired").max(contactLimits.contacts, "validation.TooManyContacts"),
  })
  .superRefine((settings, ctx) => {
    // One ID per call type: a radio could not tell two such entries apart.
    for (const index of repeatedAt(settings.contacts, (entry) => `${entry.callType}:${entry.id}`)) {
      ctx.addIssue({ code: "custom", message: "validation.ContactIdTaken", path: ["contacts", index, "id"] });
    }
  });

export type ContactsSettings = z.infer<typeof contactsSettings>;

export const contactsDefaults: ContactsSettings = { contacts: [] };

export const contactsForm: FormSpec = {
  fields: [],
  rows: {
    name: "contacts",
    legend: "profiles.contacts.legend",
    hint: "profiles.contacts.legendHint",
    item: "profiles.contacts.item",
    min: 1,
    max: contactLimits.contacts,
    add: "profiles.contacts.add",
    remove: "profiles.contacts.remove",
    message: "validation.ContactsRequired",
    blank: { callType: "group" },
    columns: [
      {
        kind: "text",
        name: "name",
        label: "profiles.contacts.name",
        message: "validation.ShortNameTooLong",
        maxLength: SHORT_NAME_MAX,
        required: true,
      },
      {
        kind: "select",
        name: "callType",
        label: "profiles.contacts.callType",
        options: callTypes.map((value) => ({ value, label: `profiles.contacts.callTypes.${value}` })),
      },
      {
        kind: "number",
        name: "id",
        label: "profiles.contacts.id",
        message: "validation.ContactIdRange",
        min: contactLimits.idMin,
        max: contactLimits.idMax,
        step: 1,
      },
    ],
  },
};
