import { GATEWAY_ERRORS, gatewayErrorHeaders } from './gateway-responses.js';
import { IMAGE_TOO_LARGE_MESSAGE } from './routes/images.js';

/** Lambda refuses a synchronous invocation whose event is larger than this (6 MiB). */
export const LAMBDA_INVOKE_LIMIT_BYTES = 6 * 1024 * 1024;
/**
 * What a REST proxy event adds around a base64 body: headers (API Gateway caps them at 10 KiB) twice
 * (single- and multi-value), query, path and request context. Generous on purpose.
 */
export const PROXY_EVENT_OVERHEAD_BYTES = 64 * 1024;
/** The largest raw body whose base64 event Lambda still accepts. */
export const LAMBDA_MAX_BINARY_BODY_BYTES = Math.floor((LAMBDA_INVOKE_LIMIT_BYTES - PROXY_EVENT_OVERHEAD_BYTES) / 4) * 3;

/**
 * A request refused before API Gateway routes it (deployed: an AWS WAF rule with a custom response,
 * which takes precedence over gateway responses; locally: the local server, first thing). For requests
 * that would otherwise reach Lambda too large to invoke and come back as a 5xx.
 */
export interface EdgeRule {
  /** WAF rule name (letters, digits, hyphens). */
  readonly name: string;
  readonly method: string;
  /** The API path (no stage prefix), as in the route table. */
  readonly path: string;
  /** Allowed: a `Content-Length` header of at most this many bytes. Anything else (more, or none) is refused. */
  readonly maxContentLength: number;
  readonly status: number;
  readonly body: string;
  /**
   * Headers of the answer besides its JSON content type: those of every gateway error response
   * (security headers, CORS), so an answer from the edge reads like one from API Gateway.
   */
  readonly headers: Readonly<Record<string, string>>;
}


/**
 * Where the rules sit in the stage's one web ACL (lib/api-firewall.ts), which WAF evaluates by
 * priority, the first Block answering: the per-address rate limit of the public routes first (every
 * request to a public path counts toward its address), then the edge rules in EDGE_RULES order. The
 * local server evaluates them in the same order (bin/local/firewall.ts).
 */
export const ADDRESS_RATE_RULE_PRIORITY = 0;
export const FIRST_EDGE_RULE_PRIORITY = 1;

export const EDGE_RULES: readonly EdgeRule[] = [{
  name: 'ImageUploadTooLarge',
  method: 'POST',
  path: '/v1/assets/images',
  // Bodies up to here reach the function, which answers 413 itself above MAX_IMAGE_BYTES.
  maxContentLength: LAMBDA_MAX_BINARY_BODY_BYTES,
  status: 413,
  body: JSON.stringify({ error: { code: 'payload_too_large', message: IMAGE_TOO_LARGE_MESSAGE } }),
  headers: gatewayErrorHeaders(GATEWAY_ERRORS.REQUEST_TOO_LARGE),
}];

/** The rule that refuses this request, if any (`contentLength` is the header's raw value). */
export function refusingEdgeRule(
  method: string, path: string, contentLength: string | undefined, rules: readonly EdgeRule[] = EDGE_RULES,
): EdgeRule | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return rules.find((rule) => rule.method === method && rule.path === trimmed
    && !(contentLength !== undefined && new RegExp(decimalAtMost(rule.maxContentLength)).test(contentLength)));
}

/**
 * A regular expression matching exactly the decimal integers from 0 to `max` (leading zeros allowed):
 * WAF compares header values as text, so a size limit has to be spelled digit by digit.
 */
export function decimalAtMost(max: number): string {
  const digits = String(max);
  const alternatives: string[] = [];
  if (digits.length > 1) alternatives.push(`\\d{1,${digits.length - 1}}`);
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[i]);
    const lowest = i === 0 && digits.length > 1 ? 1 : 0;
    if (digit - 1 < lowest) continue;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}[${lowest}-${digit - 1}]${rest > 0 ? `\\d{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return `^0*(${alternatives.join('|')})$`;
}
