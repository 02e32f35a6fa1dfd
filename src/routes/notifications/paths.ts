/** Where the notification screens live (issue 25). */
const enc = encodeURIComponent;

export const accountNotificationsHref = (accountId: string) => `/accounts/${enc(accountId)}/notifications`;
export const webhooksHref = (orgId: string) => `/settings/organizations/webhooks/${enc(orgId)}`;
export const webhookDeliveriesHref = (orgId: string, webhookId: string) =>
  `/settings/organizations/webhooks/${enc(orgId)}/deliveries/${enc(webhookId)}`;
export const deleteWebhookHref = (orgId: string, webhookId: string) =>
  `/settings/organizations/webhooks/${enc(orgId)}/delete/${enc(webhookId)}`;
