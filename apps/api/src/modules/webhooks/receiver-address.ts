import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (SPEC 1.17): https anywhere public (IPv4 unicast, IPv6 global
 * unicast, without the special blocks); plain http and every other address only for hosts
 * the configuration allows. Names are judged by the
 * addresses they resolve to, at each connection, so a name that later resolves elsewhere
 * (DNS rebinding) is still refused.
 */
export class ReceiverPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[]) {
    this.allowed = new Set(allowedHosts.map(bare));
  }

  /** What is wrong with `url` as an endpoint, before any name is resolved. */
  urlProblem(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'must be an absolute URL';
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an https URL';
    if (parsed.username || parsed.password) return 'must not carry a user name or password';
    if (parsed.protocol === 'http:' && !this.allowed.has(bare(parsed.hostname))) {
      return 'must be https (plain http only to hosts the configuration allows)';
    }
    return undefined;
  }

  /** What is wrong with the addresses `host` resolves to now, if anything. */
  async addressProblem(host: string): Promise<string | undefined> {
    const addresses = await this.resolve(bare(host)).catch(() => undefined);
    if (!addresses) return `host ${bare(host)} does not resolve`;
    const refused = addresses.find(({ address }) => !this.reaches(bare(host), address));
    return refused && refusal(bare(host), refused.address);
  }

  /** For a URL whose host is an address (no lookup is made): why it may not be reached. */
  literalProblem(host: string): string | undefined {
    const address = bare(host);
    return isIP(address) && !this.reaches(address, address) ? refusal(address, address) : undefined;
  }

  /** A `lookup` for http.request that fails the connection to an address not allowed. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    const all = (options as LookupAllOptions).all === true;
    this.resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find(({ address }) => !this.reaches(hostname, address));
        if (refused) return callback(new Error(refusal(hostname, refused.address)), '', 0);
        if (all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  /** Whether a connection to `address`, named `host`, may be made. */
  reaches(host: string, address: string): boolean {
    if (this.allowed.has(host) || this.allowed.has(address)) return true;
    // IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. Other IPv6
    // outside global unicast (2000::/3) is refused whole: IPv4-compatible (::/96), NAT64 and
    // blocks ipaddr.js leaves unnamed may reach an internal address.
    if (isIP(address) === 6 && !PUBLIC_OR_IPV4_MAPPED.check(address, 'ipv6')) return false;
    return ipaddr.process(address).range() === 'unicast';
  }

  private resolve(host: string): Promise<LookupAddress[]> {
    if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
    return new Promise((resolve, reject) =>
      lookup(host, { all: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
  }
}

// Node's parser, not ipaddr.js's: that one reads IPv4-compatible `::8.8.8.8` as IPv4-mapped.
const PUBLIC_OR_IPV4_MAPPED = new BlockList();
PUBLIC_OR_IPV4_MAPPED.addSubnet('2000::', 3, 'ipv6');
PUBLIC_OR_IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

// URL host names keep IPv6 addresses in brackets; the resolver and the list do not.
function bare(host: string): string {
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

function refusal(host: string, address: string): string {
  const what = 'not a public address, and the configuration does not allow it';
  return host === address
    ? `${address} is ${what}`
    : `host ${host} resolves to ${address}, ${what}`;
}
