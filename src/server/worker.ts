import { createApp } from "./app";

/** The Worker entry (wrangler.toml `main`). */
export default createApp();
