import { definePage } from "@/routes/types";
import { api } from "@/server/api/procedures-route";

/**
 * GET /accounts/{accountId}/archives/{archiveId}: an archive's gzip NDJSON object from R2, after
 * the same tenancy and permission checks as the live rows (archives.get: another tenant's
 * archive answers 404). The file is what was written: one JSON object per line, gzip.
 */
export const archiveDownloadPage = definePage({
  load: async (c) => {
    const archive = await api(c).archives.get({ accountId: c.req.param("accountId") ?? "", id: c.req.param("archiveId") ?? "" });
    const object = await c.env.ARCHIVE?.get(archive.r2Key);
    if (!object) return c.notFound();
    const filename = `${archive.kind}-${archive.month}-${archive.id}.ndjson.gz`.replace(/[^\w.-]/g, "");
    return new Response(object.body as ReadableStream, {
      headers: {
        "Content-Type": "application/gzip",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Content-Length": String(object.size),
        "Cache-Control": "private, no-store",
      },
    });
  },
  Component: () => null,
});
