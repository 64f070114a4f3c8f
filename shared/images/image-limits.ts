/** Largest image a single request may carry: its base64 proxy event must stay under Lambda's 6 MB. */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;
/** Largest image of the two-step upload (bytes go straight to storage; only a prefix is read back). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** How long an upload URL accepts the bytes. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** How much of an uploaded image is read to check its type and dimensions (all of it if they are further in). */
export const UPLOAD_INSPECTION_PREFIX_BYTES = 1024 * 1024;
