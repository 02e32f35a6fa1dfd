import { acceptInvitationPage } from "./accept-invitation";
import { accountHomePage } from "./account-home";
import { activityRoutes } from "./accounts/activity/routes";
import { addAccountPage } from "./accounts/add";
import { editAccountPage } from "./accounts/edit";
import { accountGeneralPage } from "./accounts/general";
import { accountsListPage } from "./accounts/list";
import { accountNetworkPage } from "./accounts/network";
import { addLocationPage } from "./accounts/workspace/locations/add";
import { editLocationPage } from "./accounts/workspace/locations/edit";
import { locationsListPage } from "./accounts/workspace/locations/list";
import { siteLocationGeneralPage, siteLocationNetworkPage } from "./accounts/workspace/locations/site-location";
import { workspaceRoutes } from "./accounts/workspace/routes";
import { addSitePage } from "./accounts/workspace/sites/add";
import { deleteSitePage } from "./accounts/workspace/sites/delete";
import { siteGeneralPage } from "./accounts/workspace/sites/general";
import { sitesListPage } from "./accounts/workspace/sites/list";
import { siteLocationsPage } from "./accounts/workspace/sites/locations";
import { siteNetworkPage } from "./accounts/workspace/sites/network";
import { openSiteLocationPage, openSitePage } from "./accounts/workspace/sites/open";
import { apiDocsRoutes } from "./api-docs/routes";
import { archiveRoutes } from "./archives/routes";
import { deviceCommandRoutes } from "./commands/routes";
import { confirmPasswordResetPage } from "./confirm-password-reset";
import { confirmResetCodeSentPage } from "./confirm-reset-code-sent";
import { deploymentRoutes } from "./deployments/routes";
import { deviceRoutes } from "./devices/routes";
import { fcCasesRoutes } from "./fc-cases/routes";
import { firmwareRoutes } from "./firmware/routes";
import { forgotPasswordPage } from "./forgot-password";
import { gettingStartedPage } from "./getting-started";
import { homePage } from "./home";
import { mailboxPage } from "./mailbox";
import { accountNotificationsPage } from "./notifications/account-notifications";
import { deleteWebhookPage, webhookDeliveriesPage } from "./notifications/webhook-pages";
import { webhooksPage } from "./notifications/webhooks";
import { addProfilePage } from "./profiles/add";
import { deleteProfilePage } from "./profiles/delete";
import { editProfilePage } from "./profiles/edit";
import { accountProfilesPage } from "./profiles/list";
import {
  addTemplatePage,
  deleteTemplatePage,
  editTemplatePage,
  templatesListPage,
  templatesRedirectPage,
} from "./profiles/templates";
import { radioGroupRoutes } from "./radio-groups/routes";
import { reportRoutes } from "./reports/routes";
import { resetPasswordPage } from "./reset-password";
import { deleteRulePage } from "./rules/delete";
import { addRulePage, editRulePage } from "./rules/form";
import { rulesListPage } from "./rules/list";
import { securityPage } from "./security";
import { unlinkIdentityPage } from "./security-identities";
import { removePasskeyPage, renamePasskeyPage } from "./security-passkeys";
import { allocationAddPage } from "./settings/allocation-add";
import { allocationEditPage } from "./settings/allocation-edit";
import { allocationRemovePage } from "./settings/allocation-remove";
import { allocationsListPage } from "./settings/allocations-list";
import { addApiTokenPage } from "./settings/api-token-add";
import { revokeApiTokenPage } from "./settings/api-token-revoke";
import { apiTokensPage } from "./settings/api-tokens-list";
import {
  addIdentityProviderPage,
  deleteIdentityProviderPage,
  editIdentityProviderPage,
  identityProviderDomainsPage,
  identityProvidersPage,
} from "./settings/identity-providers";
import { organizationAddPage } from "./settings/organization-add";
import { organizationEditPage } from "./settings/organization-edit";
import { organizationsListPage } from "./settings/organizations-list";
import { seatRoutes } from "./settings/seat-routes";
import { subscriptionAddPage } from "./settings/subscription-add";
import { subscriptionAllocatePage } from "./settings/subscription-allocate";
import { subscriptionDeallocatePage } from "./settings/subscription-deallocate";
import { subscriptionEditPage } from "./settings/subscription-edit";
import { subscriptionRemovePage } from "./settings/subscription-remove";
import { subscriptionsListPage } from "./settings/subscriptions-list";
import { userEditPage } from "./settings/user-edit";
import { userInvitePage } from "./settings/user-invite";
import { usersListPage } from "./settings/users-list";
import { signInPage } from "./sign-in";
import { simulatorPage } from "./simulator/page";
import type { RouteDefinition } from "./types";
import { welcomePage } from "./welcome";

/**
 * Every screen of the product (spec §2): path, title key, who may open it, the page and its
 * form action. The server registers them in this order.
 */
export const routes: RouteDefinition[] = [
  { path: "/", title: "routes.home", access: "public", page: homePage },
  { path: "/sign-in", title: "routes.signIn", access: "public", page: signInPage },
  { path: "/accept/:invitationCode", title: "routes.accept", access: "public", page: acceptInvitationPage },
  { path: "/forgot-password", title: "routes.forgotPassword", access: "public", page: forgotPasswordPage },
  {
    path: "/confirm-reset-code-sent",
    title: "routes.confirmResetCodeSent",
    access: "public",
    page: confirmResetCodeSentPage,
  },
  {
    path: "/reset-password/:resetCode",
    title: "routes.resetPassword",
    access: "public",
    page: resetPasswordPage,
  },
  {
    path: "/confirm-password-reset",
    title: "routes.confirmPasswordReset",
    access: "public",
    page: confirmPasswordResetPage,
  },
  { path: "/simulator", title: "routes.simulator", access: "public", page: simulatorPage },
  // The integrators' API reference (issue 27), rendered from docs/api/openapi.json.
  ...apiDocsRoutes,
  // Signed-in pages (spec §2): without a session they show the sign-in form at the same URL.
  { path: "/welcome", title: "routes.welcome", access: "signed-in", page: welcomePage },
  { path: "/getting-started", title: "routes.gettingStarted", access: "signed-in", page: gettingStartedPage },
  { path: "/security", title: "routes.security", access: "signed-in", page: securityPage },
  // Accounts (spec §2). /accounts/add and /accounts/edit/… before any /accounts/:accountId route.
  { path: "/accounts", title: "routes.accounts", access: "signed-in", page: accountsListPage },
  { path: "/accounts/add", title: "routes.addAccount", access: "signed-in", permission: "edit-accounts", page: addAccountPage },
  { path: "/accounts/edit/:accountId", title: "routes.accountSettings", access: "signed-in", page: editAccountPage },
  {
    path: "/accounts/edit/:accountId/general",
    title: "routes.accountSettings",
    access: "signed-in",
    permission: "edit-configurations",
    page: accountGeneralPage,
  },
  {
    path: "/accounts/edit/:accountId/network",
    title: "routes.accountSettings",
    access: "signed-in",
    permission: "edit-network-config",
    page: accountNetworkPage,
  },
  // An account's home; "add" and "edit" are the accounts screens, whatever order they are listed in.
  {
    path: "/accounts/:accountId{(?!(?:add|edit)$)[^/]+}",
    title: "routes.accountHome",
    access: "signed-in",
    page: accountHomePage,
  },
  // Each person's own email choices for an account (issue 25).
  {
    path: "/accounts/:accountId/notifications",
    title: "routes.notifications",
    access: "signed-in",
    page: accountNotificationsPage,
  },
  // An account's activity log, its CSV, and the changes waiting to be deployed.
  ...activityRoutes,
  // Confirming a deployment, the deployments list and each deployment's page (issue 12).
  ...deploymentRoutes,
  // An account's reports and their CSV (issue 14).
  ...reportRoutes,
  // Downloads of what moved to R2 after the account's retention (issue 24).
  ...archiveRoutes,
  // An account's sites and locations (spec §2, §6); "add" and "edit" before the ids they look like.
  ...workspaceRoutes([
    ["/sites", "routes.sites", "edit-configurations", sitesListPage],
    ["/sites/add", "routes.addSite", "edit-configurations", addSitePage],
    ["/sites/:siteId{(?!add$)[^/]+}", "routes.site", undefined, openSitePage],
    ["/sites/:siteId/general", "routes.site", "edit-configurations", siteGeneralPage],
    ["/sites/:siteId/locations", "routes.site", "edit-configurations", siteLocationsPage],
    ["/sites/:siteId/network", "routes.site", "edit-network-config", siteNetworkPage],
    ["/sites/:siteId/delete", "routes.deleteSite", "edit-configurations", deleteSitePage],
    ["/sites/:siteId/locations/:locationId", "routes.location", undefined, openSiteLocationPage],
    ["/sites/:siteId/locations/:locationId/general", "routes.location", "edit-configurations", siteLocationGeneralPage],
    ["/sites/:siteId/locations/:locationId/network", "routes.location", "edit-network-config", siteLocationNetworkPage],
    ["/locations", "routes.locations", "edit-configurations", locationsListPage],
    ["/locations/add", "routes.addLocation", "edit-configurations", addLocationPage],
    ["/locations/edit/:locationId", "routes.editLocation", "edit-configurations", editLocationPage],
  ]),
  // An account's profiles and rules (spec §2, §6: edit-configurations).
  ...workspaceRoutes([
    ["/profiles", "routes.profiles", "edit-configurations", accountProfilesPage],
    ["/profiles/add", "routes.addProfile", "edit-configurations", addProfilePage],
    ["/profiles/edit/:profileId", "routes.editProfile", "edit-configurations", editProfilePage],
    ["/profiles/delete/:profileId", "routes.deleteProfile", "edit-configurations", deleteProfilePage],
    ["/rules", "routes.rules", "edit-configurations", rulesListPage],
    ["/rules/add", "routes.addRule", "edit-configurations", addRulePage],
    ["/rules/edit/:ruleId", "routes.editRule", "edit-configurations", editRulePage],
    ["/rules/delete/:ruleId", "routes.deleteRule", "edit-configurations", deleteRulePage],
  ]),
  // The customer-care desk (issue 15): fc-cases tabs, sessions, customers, employees, radios' fc settings.
  ...fcCasesRoutes,
  // Commands to radios (issue 13): history, one command, send, bulk send and the connectivity test.
  // Saved groups beside an account's inventory (issue 25), before the uid-shaped command paths.
  ...radioGroupRoutes,
  // Firmware packages (issue 26), before the uid-shaped command paths (/devices/:screen/:uid).
  ...firmwareRoutes,
  ...deviceCommandRoutes,
  // The device inventory and an account's registry (spec §2); /devices/profiles below is apart.
  ...deviceRoutes,
  // Organization-wide profile templates (spec §2: devices/profiles/{profileType}; manage-devices).
  { path: "/devices/profiles", title: "routes.profileTemplates", access: "signed-in", page: templatesRedirectPage },
  {
    path: "/devices/profiles/:profileType",
    title: "routes.profileTemplates",
    access: "signed-in",
    permission: "manage-devices",
    page: templatesListPage,
  },
  {
    path: "/devices/profiles/:profileType/add",
    title: "routes.addProfileTemplate",
    access: "signed-in",
    permission: "manage-devices",
    page: addTemplatePage,
  },
  {
    path: "/devices/profiles/:profileType/edit/:profileId",
    title: "routes.editProfileTemplate",
    access: "signed-in",
    permission: "manage-devices",
    page: editTemplatePage,
  },
  {
    path: "/devices/profiles/:profileType/delete/:profileId",
    title: "routes.deleteProfileTemplate",
    access: "signed-in",
    permission: "manage-devices",
    page: deleteTemplatePage,
  },
  {
    path: "/security/passkeys/:passkeyId/rename",
    title: "routes.renamePasskey",
    access: "signed-in",
    page: renamePasskeyPage,
  },
  {
    path: "/security/passkeys/:passkeyId/remove",
    title: "routes.removePasskey",
    access: "signed-in",
    page: removePasskeyPage,
  },
  {
    path: "/security/identities/:identityId/unlink",
    title: "routes.unlinkIdentity",
    access: "signed-in",
    page: unlinkIdentityPage,
  },
  // Single sign-on providers (a later issue puts them in the settings area's tabs).
  {
    path: "/settings/identity-providers",
    title: "routes.identityProviders",
    access: "signed-in",
    permission: "edit-users",
    page: identityProvidersPage,
  },
  {
    path: "/settings/identity-providers/add",
    title: "routes.addIdentityProvider",
    access: "signed-in",
    permission: "edit-users",
    page: addIdentityProviderPage,
  },
  {
    path: "/settings/identity-providers/edit/:identityProviderId",
    title: "routes.editIdentityProvider",
    access: "signed-in",
    permission: "edit-users",
    page: editIdentityProviderPage,
  },
  {
    path: "/settings/identity-providers/edit/:identityProviderId/domains",
    title: "routes.editIdentityProvider",
    access: "signed-in",
    permission: "edit-users",
    page: identityProviderDomainsPage,
  },
  {
    path: "/settings/identity-providers/delete/:identityProviderId",
    title: "routes.deleteIdentityProvider",
    access: "signed-in",
    permission: "edit-users",
    page: deleteIdentityProviderPage,
  },
  // API tokens of the organization (issue 27).
  { path: "/settings/api-tokens", title: "routes.apiTokens", access: "signed-in", permission: "edit-users", page: apiTokensPage },
  {
    path: "/settings/api-tokens/add",
    title: "routes.addApiToken",
    access: "signed-in",
    permission: "edit-users",
    page: addApiTokenPage,
  },
  {
    path: "/settings/api-tokens/revoke/:tokenId",
    title: "routes.revokeApiToken",
    access: "signed-in",
    permission: "edit-users",
    page: revokeApiTokenPage,
  },
  // Settings: Organizations (open to every signed-in user for reading) and Users (spec §2, §6).
  { path: "/settings/organizations", title: "routes.settingsOrganizations", access: "signed-in", page: organizationsListPage },
  {
    path: "/settings/organizations/add",
    title: "routes.addOrganization",
    access: "signed-in",
    permission: "edit-accounts",
    page: organizationAddPage,
  },
  {
    path: "/settings/organizations/edit/:orgId",
    title: "routes.editOrganization",
    access: "signed-in",
    permission: "edit-accounts",
    page: organizationEditPage,
  },
  // Notifications (issue 25): an organization's webhooks, their delivery log and delete.
  {
    path: "/settings/organizations/webhooks/:orgId",
    title: "routes.webhooks",
    access: "signed-in",
    permission: "edit-accounts",
    page: webhooksPage,
  },
  {
    path: "/settings/organizations/webhooks/:orgId/deliveries/:webhookId",
    title: "routes.webhookDeliveries",
    access: "signed-in",
    permission: "edit-accounts",
    page: webhookDeliveriesPage,
  },
  {
    path: "/settings/organizations/webhooks/:orgId/delete/:webhookId",
    title: "routes.deleteWebhook",
    access: "signed-in",
    permission: "edit-accounts",
    page: deleteWebhookPage,
  },
  { path: "/settings/users", title: "routes.settingsUsers", access: "signed-in", permission: "edit-users", page: usersListPage },
  {
    path: "/settings/users/invite",
    title: "routes.inviteUser",
    access: "signed-in",
    permission: "edit-users",
    page: userInvitePage,
  },
  {
    path: "/settings/users/edit/:userId",
    title: "routes.editUser",
    access: "signed-in",
    permission: "edit-users",
    page: userEditPage,
  },
  // Settings: Subscriptions and Allocations (spec §2, §6), ?orgId= picks the organization.
  ...seatRoutes([
    ["/settings/subscriptions", "routes.settingsSubscriptions", subscriptionsListPage],
    ["/settings/subscriptions/add", "routes.addSubscription", subscriptionAddPage],
    ["/settings/subscriptions/remove", "routes.removeSubscription", subscriptionRemovePage],
    ["/settings/subscriptions/edit/:subscriptionId", "routes.editSubscription", subscriptionEditPage],
    ["/settings/subscriptions/allocate", "routes.allocateSeats", subscriptionAllocatePage],
    ["/settings/subscriptions/deallocate", "routes.deallocateSeats", subscriptionDeallocatePage],
    ["/settings/subscriptions/editAllocation/:allocationId", "routes.editAllocation", allocationEditPage],
    ["/settings/allocations", "routes.settingsAllocations", allocationsListPage],
    ["/settings/allocations/allocate", "routes.allocateToAccount", allocationAddPage],
    ["/settings/allocations/deallocate", "routes.deallocateFromAccount", allocationRemovePage],
  ]),
  // Local demo only: the page answers 404 when APP_ENV is production.
  { path: "/mailbox", title: "mailbox.title", access: "public", page: mailboxPage },
];
