/** Other tabs of the site hear of a sign-out through this key (the storage event) and leave too. */
export const SIGNED_OUT_KEY = "signed-out-at";

/**
 * Spec §4: post the sign-out, refresh the current-user data, then a full navigation to "/".
 * A failed post is only logged with its status (spec §8); the user is still sent home, and
 * the server ends an abandoned session by itself after 15 idle minutes.
 */
export async function signOut(): Promise<void> {
  try {
    const response = await fetch("/api/sign-out", { method: "POST", headers: { Accept: "application/json" } });
    if (!response.ok) console.error(`Sign-out failed: ${response.status}`);
  } catch (error) {
    console.error("Sign-out failed: no answer", error);
  }
  try {
    await fetch("/api/me", { headers: { Accept: "application/json" }, cache: "no-store" });
    localStorage.setItem(SIGNED_OUT_KEY, String(Date.now()));
  } catch {
    // The navigation below shows the signed-out state whatever this answered.
  }
  location.assign("/");
}
