import { homePage } from "./home";
import { mailboxPage } from "./mailbox";
import { placeholderPage } from "./placeholder";
import type { RouteDefinition } from "./types";

/**
 * Every screen of the product (spec §2): path, title key, who may open it, the page and its
 * form action. The server registers them in this order.
 */
export const routes: RouteDefinition[] = [
  { path: "/", title: "routes.home", access: "public", page: homePage },
  { path: "/sign-in", title: "routes.signIn", access: "public", page: placeholderPage("routes.signIn") },
  { path: "/accept/:invitationCode", title: "routes.accept", access: "public", page: placeholderPage("routes.accept") },
  { path: "/forgot-password", title: "routes.forgotPassword", access: "public", page: placeholderPage("routes.forgotPassword") },
  {
    path: "/confirm-reset-code-sent",
    title: "routes.confirmResetCodeSent",
    access: "public",
    page: placeholderPage("routes.confirmResetCodeSent"),
  },
  {
    path: "/reset-password/:resetCode",
    title: "routes.resetPassword",
    access: "public",
    page: placeholderPage("routes.resetPassword"),
  },
  {
    path: "/confirm-password-reset",
    title: "routes.confirmPasswordReset",
    access: "public",
    page: placeholderPage("routes.confirmPasswordReset"),
  },
  { path: "/simulator", title: "routes.simulator", access: "public", page: placeholderPage("routes.simulator") },
  // Local demo only: the page answers 404 when APP_ENV is production.
  { path: "/mailbox", title: "mailbox.title", access: "public", page: mailboxPage },
];
