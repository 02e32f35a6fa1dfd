/**
 * The new API token's page (src/routes/settings/api-tokens.tsx): shows the copy button the
 * server rendered hidden (it needs JavaScript), copies the secret, and says so to everyone,
 * screen readers included. Where the clipboard is refused, the secret is selected instead.
 */
function offerCopy(button: HTMLButtonElement) {
  const secret = document.querySelector<HTMLInputElement>("[data-token-secret]");
  const status = document.querySelector<HTMLElement>("[data-copy-status]");
  if (!secret) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(secret.value);
      if (status) status.textContent = button.dataset.copiedText ?? "";
    } catch {
      secret.focus();
      secret.select();
    }
  });
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy-secret]")) offerCopy(button);
