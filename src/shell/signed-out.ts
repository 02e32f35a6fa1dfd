/**
 * The shell script of signed-out pages: the language menu's keyboard and focus handling, and
 * the toast of a flash. No React: the toaster loads only when a toast is shown.
 */
import { enhanceDisclosures } from "./disclosures";
import { showFlash } from "./flash";

enhanceDisclosures();
showFlash();
