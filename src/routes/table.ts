import { acceptInvitationPage } from "./accept-invitation";
import { confirmPasswordResetPage } from "./confirm-password-reset";
import { confirmResetCodeSentPage } from "./confirm-reset-code-sent";
import { forgotPasswordPage } from "./forgot-password";
import { gettingStartedPage } from "./getting-started";
import { homePage } from "./home";
import { mailboxPage } from "./mailbox";
import { placeholderPage } from "./placeholder";
import { resetPasswordPage } from "./reset-password";
import { securityPage } from "./security";
import { signInPage } from "./sign-in";
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
  { path: "/simulator", title: "routes.simulator", access: "public", page: placeholderPage("routes.simulator") },
  // Signed-in pages (spec §2): without a session they show the sign-in form at the same URL.
  { path: "/welcome", title: "routes.welcome", access: "signed-in", page: welcomePage },
  { path: "/getting-started", title: "routes.gettingStarted", access: "signed-in", page: gettingStartedPage },
  { path: "/security", title: "routes.security", access: "signed-in", page: securityPage },
  // Local demo only: the page answers 404 when APP_ENV is production.
  { path: "/mailbox", title: "mailbox.title", access: "public", page: mailboxPage },
];
