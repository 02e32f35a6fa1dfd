import type { Context } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { isDevelopment } from "../env";

/**
 * DESIGN.md §5: a CSP whose only scripts are the nonce'd island bootstrap and what it
 * imports ('strict-dynamic'), no framing, HSTS, nosniff and a strict referrer policy.
 * Styles allow inline because the toaster sets CSS variables in style attributes.
 */
export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: [NONCE, "'strict-dynamic'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      // Vite's dev client talks to its server over a WebSocket.
      connectSrc: ["'self'", (c: Context) => (isDevelopment(c.env) ? "ws: wss:" : "")],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    xContentTypeOptions: "nosniff",
    crossOriginEmbedderPolicy: false,
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
