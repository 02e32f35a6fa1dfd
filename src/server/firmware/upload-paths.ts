/**
 * The two requests that carry a firmware file (issue 26), which the general body limits
 * (middleware/request-limits.ts) leave to their handlers: a part sent by the upload script, and
 * the upload form posted without JavaScript (both read the bytes as a stream, within their own limits).
 */
export const PART_PATH = /^\/api\/firmware\/[^/]+\/parts\/[^/]+$/;
export const UPLOAD_FORM_PATH = /^(\/devices|\/accounts\/[^/]+\/registry)\/firmware\/new$/;
