/**
 * The product areas that have screens yet. Nothing links to an area before its screens exist
 * (issue 9, §5): the sidebar, the profile menu, the welcome page, the account home, the
 * getting-started guide and the public home page all ask here. The issue that builds an area
 * flips its flag, in this one place, and every link and text about it comes back.
 */
export const builtAreas = {
  /** /devices, the device inventory and an account's registry (devices and subscriptions). */
  devices: true,
  /** An account's reports. */
  reports: true,
  /** Deployments that push reviewed changes to the radios. */
  deployments: true,
  /** Commands sent to radios. */
  commands: true,
} as const;

export type ProductArea = keyof typeof builtAreas;

export function isBuilt(area: ProductArea, areas: Record<ProductArea, boolean> = builtAreas): boolean {
  return areas[area];
}
