/**
 * The fetch of an import's source (`importFile`), guarded against server-side request forgery: a
 * visitor must not make the emulator fetch the emulator itself (its control API holds the API key
 * and the password hashes) or a service on the developer's machine or network and read the answer
 * back as a file. Loopback and private addresses are refused unless the `importsFromPrivateAddresses`
 * setting allows them (local test fixtures); the emulator's own port on this machine never is.
 * The check applies to the address each connection is made to, after DNS resolution (a name that
 * resolves to 127.0.0.1, or that changes its answer between a check and the connection, is caught),
 * and again at every redirect.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isLocalhostName } from '../../http/request-guards.js';

/** The setting that lets imports reach loopback and private addresses. */
export const PRIVATE_IMPORTS_SETTING = 'importsFromPrivateAddresses';

/** Where imports may go. */
export interface ImportReach {
  /** Loopback, private, link-local... addresses allowed (the setting). */
  privateAddressesAllowed: boolean;
  /** The emulator's own port: never fetched on this machine's addresses, setting or not. */
  emulatorPort: number;
  /** How to allow loopback and private addresses, for the refusal's words (default: the emulator's setting). */
  howToAllowPrivate?: string;
}

/** An import source the guard refuses; its message names the reason and, where it helps, the setting. */
export class ImportSourceRefused extends Error {
  override readonly name = 'ImportSourceRefused';
}

/** Ranges that are not the public internet: this machine, private networks, link-local, multicast, reserved. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** This machine's own addresses as a connection may reach them: loopback, "any", and every interface's. */
const THIS_MACHINE = new BlockList();
THIS_MACHINE.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_MACHINE.addSubnet('0.0.0.0', 8, 'ipv4');
THIS_MACHINE.addAddress('::1', 'ipv6');
THIS_MACHINE.addAddress('::', 'ipv6');

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail and a zone included). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  // Without `::`, `left` holds all eight.
  return [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address an IPv6 address carries and routes to, if any: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`).
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group == 0);
  if (zeros(0, 5) && (groups[5] == 0xffff || groups[5] == 0) && (groups[6] || groups[7]))
    return quad(groups[6]!, groups[7]!);
  if (groups[0] == 0x64 && groups[1] == 0xff9b && zeros(2, 6)) return quad(groups[6]!, groups[7]!);
  if (groups[0] == 0x2002) return quad(groups[1]!, groups[2]!);
  return undefined;
}

/** An address as the block lists compare it: an IPv6 one carrying an IPv4 address becomes that address. */
function normalised(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const bare = address.replace(/[[\]]/g, '');
  const version = isIP(bare);
  if (version == 4) return { address: bare, family: 'ipv4' };
  // Stryker disable next-line ConditionalExpression: what is not an address carries none either (its groups are not numbers).
  const inner = version == 6 ? embeddedIpv4(bare) : undefined;
  return inner ? { address: inner, family: 'ipv4' } : { address: bare.split('%')[0]!, family: 'ipv6' };
}

/** Whether `address` is one of this machine's. */
function isThisMachine(address: string, family: 'ipv4' | 'ipv6'): boolean {
  if (THIS_MACHINE.check(address, family)) return true;
  return Object.values(networkInterfaces()).some((entries) =>
    // Stryker disable next-line OptionalChaining: networkInterfaces() lists no interface without its addresses.
    entries?.some((entry) => normalised(entry.address).address == address),
  );
}

/** Why a connection to `address:port` is refused, or undefined when it may be made. */
export function addressProblem(rawAddress: string, port: number, reach: ImportReach): string | undefined {
  const { address, family } = normalised(rawAddress);
  if (port == reach.emulatorPort && isThisMachine(address, family))
    return `the source ${rawAddress}:${port} is the emulator itself, which imports never fetch`;
  if (!reach.privateAddressesAllowed && NON_PUBLIC.check(address, family))
    return `the source resolves to ${rawAddress}, a loopback or private address; ${reach.howToAllowPrivate ?? `set the config setting ${PRIVATE_IMPORTS_SETTING} to true`} to import from this machine or a private network`;
  return undefined;
}

/** The port a URL connects to. */
const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol == 'https:' ? 443 : 80);

/**
 * Why a source URL is refused before any DNS resolution (an IP address or a `localhost` name the
 * guard can judge at once), or undefined. Lets the import request itself be answered with a 400.
 */
export function sourceProblem(url: URL, reach: ImportReach): string | undefined {
  const hostname = url.hostname.replace(/[[\]]/g, '');
  if (isIP(hostname)) return addressProblem(hostname, portOf(url), reach);
  if (isLocalhostName(hostname)) return addressProblem('127.0.0.1', portOf(url), reach);
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A resolver of every address of a name: `dns.lookup` with `all: true`. */
export type ResolveAll = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for `http.request` that resolves the name (with `resolveAll`, `dns.lookup` but for
 * tests of answers no local resolver gives) and keeps only the addresses the guard allows: a
 * refused address is never connected to (a GET can be enough to act on a local service).
 */
export function guardedLookup(reach: ImportReach, port: number, resolveAll: ResolveAll = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      // Stryker disable next-line ArrayDeclaration: with an error, the addresses are not read.
      if (error) return callback(error, []);
      const problems = addresses.map((entry) => addressProblem(entry.address, port, reach));
      const allowed = addresses.filter((_entry, index) => problems[index] === undefined);
      if (allowed.length == 0)
        // Stryker disable next-line ArrayDeclaration: with an error, the addresses are not read.
        return callback(new ImportSourceRefused(problems[0] ?? `${hostname} has no address`), []);
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/** How many redirects an import follows. */
const MAX_REDIRECTS = 5;

/**
 * GETs `url` within `reach`, following redirects (each checked the same way; the caller's headers
 * go to the first origin only). Resolves with the final response, body unread; a refused source
 * rejects with {@link ImportSourceRefused}.
 */
export async function fetchImportSource(
  url: URL,
  headers: Record<string, string>,
  reach: ImportReach,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  let target = url;
  for (let redirects = 0; ; redirects++) {
    const problem = sourceProblem(target, reach);
    if (problem) throw new ImportSourceRefused(problem);
    const port = portOf(target);
    const send = target.protocol == 'https:' ? httpsRequest : httpRequest;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(target, {
        headers: {
          ...(target.origin == url.origin ? headers : {}),
          // Bytes as stored: fetch would decompress, node:http does not.
          'accept-encoding': 'identity',
        },
        lookup: guardedLookup(reach, port) as never,
        signal,
      });
      outgoing.on('response', resolve);
      outgoing.on('error', reject);
      outgoing.end();
    });
    // The address actually connected to, checked again (a path the lookup did not see cannot slip through).
    // Stryker disable all: defence in depth. Every connection made today went to an address
    // sourceProblem or the guarded lookup allowed, so no test can reach a refusal here.
    const remote = response.socket.remoteAddress;
    const remoteProblem = remote ? addressProblem(remote, port, reach) : undefined;
    if (remoteProblem) {
      response.destroy();
      throw new ImportSourceRefused(remoteProblem);
    }
    // Stryker restore all
    const location = response.headers.location;
    if (!(response.statusCode! >= 300 && response.statusCode! < 400 && location)) return response;
    response.resume();
    if (redirects >= MAX_REDIRECTS) throw new ImportSourceRefused(`more than ${MAX_REDIRECTS} redirects`);
    if (!URL.canParse(location, target)) throw new ImportSourceRefused(`a redirect to ${location}, which is not a URL`);
    target = new URL(location, target);
    if (target.protocol != 'http:' && target.protocol != 'https:')
      throw new ImportSourceRefused(`a redirect to ${target.protocol}, not http(s)`);
  }
}
