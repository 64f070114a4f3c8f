import { once } from '../model/lazy-schema.js';

/**
 * The SSRF guard of webhook URLs. A host registers a URL; we POST to it from inside our network, so
 * the URL must never reach our own infrastructure: private networks, loopback, link-local (where the
 * cloud metadata service lives), and other special-purpose ranges are refused, at registration and
 * again at every send (DNS is re-resolved, and the connection goes to the address that was checked).
 *
 * Policies: `deployed` takes `https` only; `local` (the local server) also takes `http://127.0.0.1`
 * and `http://localhost`, and loopback addresses, so a receiver on the developer's machine works.
 */
export type UrlPolicy = 'deployed' | 'local';

/** `WEBHOOK_URL_POLICY=local` is set by `npm start` and the test setup; anything else is `deployed`. */
export function currentUrlPolicy(): UrlPolicy {
  return process.env.WEBHOOK_URL_POLICY === 'local' ? 'local' : 'deployed';
}

/**
 * Special-purpose ranges (RFC 6890 and friends) that a webhook may never reach, and loopback. Built on
 * the first check, not at module load: Node loads its BlockList internals on first use, and most
 * requests of the functions that bundle this guard never check an address (issue 16, P1).
 */
const blockLists = once(() => {
  const { BlockList } = process.getBuiltinModule('node:net');
  const forbidden = new BlockList();
  const loopback = new BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
    ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
    ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) forbidden.addSubnet(network, prefix, 'ipv4');
  // `::/96` (IPv4-compatible, `::127.0.0.1`, and the unspecified `::`), `::ffff:0:0:0/96` (IPv4-translated,
  // `::ffff:0:a9fe:a9fe`) and `fec0::/10` (site-local) are deprecated forms that embed or reach private
  // networks; IPv4-mapped addresses (`::ffff:10.0.0.1`) the BlockList checks against the IPv4 ranges itself.
  for (const [network, prefix] of [
    ['::', 96], ['::ffff:0:0:0', 96], ['fec0::', 10], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
  ] as const) forbidden.addSubnet(network, prefix, 'ipv6');
  loopback.addSubnet('127.0.0.0', 8, 'ipv4');
  loopback.addAddress('::1', 'ipv6');
  return { forbidden, loopback };
});

/**
 * `net.isIP`, looked up on first use: importing `node:net` into an ES module makes Node build its
 * whole export list, BlockList internals included, at every cold start (issue 16, P1).
 */
const isIP = (input: string): number => process.getBuiltinModule('node:net').isIP(input);

/** Hostnames of metadata services that do not always sit on a literal link-local address. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

/** `[::1]` -> `::1`, `Example.COM.` -> `example.com`. */
function bareHostname(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return unbracketed.toLowerCase().replace(/\.$/, '');
}

/** Why an IP address may not be reached under the policy, or undefined when it may. */
export function addressProblem(address: string, policy: UrlPolicy): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'is not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const { forbidden, loopback } = blockLists();
  if (loopback.check(address, type)) return policy === 'local' ? undefined : 'resolves to a loopback address';
  if (forbidden.check(address, type)) {
    return /^(169\.254\.|fe[89ab])/i.test(address) || /^::ffff:(169\.254\.|a9fe:)/i.test(address)
      ? 'resolves to a link-local or metadata address'
      : 'resolves to a private or reserved address';
  }
  return undefined;
}

/**
 * Why a URL may not be registered under the policy, judged on its text alone (no DNS), or undefined.
 * The message completes "`url` ...".
 */
export function urlProblem(raw: string, policy: UrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL, e.g. https://hooks.example.com/boxoffice';
  }
  const host = bareHostname(url.hostname);
  const local = policy === 'local' && LOCAL_HOSTS.has(host);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return policy === 'local' ? 'must use https (or http://127.0.0.1 / http://localhost on the local server)' : 'must use https';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain credentials (user:password@)';
  if (host === '') return 'must name a host';
  if (METADATA_HOSTS.has(host)) return 'must not point at a metadata service';
  if (host === 'localhost' || host.endsWith('.localhost')) return local ? undefined : 'must not point at localhost';
  if (isIP(host) !== 0) {
    const problem = addressProblem(host, policy);
    return problem ? problem.replace(/^resolves to/, 'points at') : undefined;
  }
  return undefined;
}

/** The URL policy refused a host: the message completes "`url` ...". */
export class UrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

const RESOLVE_TIMEOUT_MS = 3_000;

/** The resolver module is loaded on the first lookup, not at cold start (~0.7 ms of every function that bundles the guard). */
const systemLookup: Lookup = async (hostname) => (await import('node:dns/promises')).lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves the URL's host and checks EVERY address (a name with one public and one private address
 * is refused: the connection could go to either). Returns the allowed addresses; throws
 * UrlRefusedError when one is forbidden, and `undefined` when the name does not resolve.
 */
export async function resolveAllowed(raw: string, policy: UrlPolicy, lookup: Lookup = systemLookup): Promise<ResolvedAddress[] | undefined> {
  const problem = urlProblem(raw, policy);
  if (problem) throw new UrlRefusedError(problem);
  const host = bareHostname(new URL(raw).hostname);
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await Promise.race([
        lookup(host),
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('DNS timeout')), RESOLVE_TIMEOUT_MS).unref()),
      ]);
    } catch {
      return undefined;
    }
  }
  for (const { address } of addresses) {
    const refused = addressProblem(address, policy);
    if (refused) throw new UrlRefusedError(refused);
  }
  return addresses.length > 0 ? addresses : undefined;
}
