import { createHash } from 'node:crypto';

/**
 * Headers every response carries, whatever answers it: group handlers and operations (Lambda), gateway
 * responses and MOCK integrations (API Gateway), and the local server's own answers.
 *
 * - `X-Content-Type-Options: nosniff`: browsers take each body for its declared type only (a JSON
 *   error body echoing input is never run as a script or rendered as HTML).
 * - `Strict-Transport-Security`: deployed, the API is HTTPS only, and browsers remember to never call
 *   it over plain HTTP for a year. The local server sends it too (one code path, and the deployed
 *   tier compares local and deployed answers header by header): browsers ignore it over plain HTTP
 *   and for IP-address hosts (RFC 6797, sections 8.1 and 8.3), so it is harmless on
 *   `http://127.0.0.1`.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

/** `headers` with the security headers under them (a header set explicitly wins). */
export function withSecurityHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return { ...SECURITY_HEADERS, ...headers };
}

/** The CSP source of an inline script or style: its SHA-256, so that exactly this text may run. */
export function sourceHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface HtmlPagePolicy {
  /** Hashes (`sourceHash`) of the page's inline scripts; scripts otherwise come from the page's own origin. */
  readonly inlineScriptHashes?: readonly string[];
  /** Hashes (`sourceHash`) of the page's `<style>` elements, shadow roots' included. @default none */
  readonly inlineStyleHashes?: readonly string[];
  /** Other origins whose scripts the page runs (e.g. the API base of a demo page). @default none */
  readonly scriptOrigins?: readonly string[];
  /** Origins the page's scripts may call besides its own. @default none */
  readonly connectOrigins?: readonly string[];
  /** Origins of images besides its own and `data:`. @default none */
  readonly imageOrigins?: readonly string[];
}

/**
 * Headers of an HTML page: a Content-Security-Policy that allows only the page's own assets (no
 * inline script but the hashed ones, no plugin, no foreign base or form target), and frame protection:
 * no site may frame it (`frame-ancestors 'none'`, and `X-Frame-Options: DENY` for older browsers).
 */
export function htmlPageHeaders(policy: HtmlPagePolicy = {}): Record<string, string> {
  const list = (...sources: readonly (string | undefined)[]) => sources.filter((source) => source !== undefined && source !== '').join(' ');
  const directives = [
    "default-src 'none'",
    `script-src ${list("'self'", ...(policy.inlineScriptHashes ?? []), ...(policy.scriptOrigins ?? []))}`,
    // Swagger UI styles its components from its stylesheet and through the CSSOM, which CSP allows.
    `style-src ${list("'self'", ...(policy.inlineStyleHashes ?? []))}`,
    `img-src ${list("'self'", 'data:', ...(policy.imageOrigins ?? []))}`,
    `connect-src ${list("'self'", ...(policy.connectOrigins ?? []))}`,
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ];
  return {
    'Content-Security-Policy': directives.join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
  };
}
