import { z } from "zod";
import type { FormSpec } from "./form-spec";
import { choice } from "./zod-fields";

/**
 * "Buttons": what the programmable buttons do. The orange emergency button only raises the
 * emergency alarm or does nothing, so nobody presses it for something else by habit.
 */
export const buttonActions = [
  "none",
  "monitor",
  "scan",
  "power-level",
  "talkaround",
  "keypad-lock",
  "gps-report",
  "emergency-alarm",
] as const;
export const emergencyActions = ["none", "emergency-alarm"] as const;
export const programmableButtons = ["side1", "side2", "top", "emergency"] as const;

export const buttonsSettings = z.object({
  side1: choice(buttonActions),
  side2: choice(buttonActions),
  top: choice(buttonActions),
  emergency: choice(emergencyActions),
});

export type ButtonsSettings = z.infer<typeof buttonsSettings>;

export const buttonsDefaults: ButtonsSettings = { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" };

export const buttonsForm: FormSpec = {
  fields: programmableButtons.map((name) => ({
    kind: "select" as const,
    name,
    label: `profiles.buttons.${name}`,
    options: (name === "emergency" ? emergencyActions : buttonActions).map((value) => ({
      value,
      label: `profiles.buttons.actions.${value}`,
    })),
  })),
};
