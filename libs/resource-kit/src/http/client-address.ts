import ipaddr from 'ipaddr.js';

/**
 * The client a limit keyed by address counts (SPEC 1.12): an IPv4 address as it is (also when
 * IPv4-mapped in IPv6), or the /64 network of an IPv6 address, since one subscriber holds a
 * whole /64 and could otherwise take a fresh address per attempt.
 *
 * @example addressKeyOf('2001:db8:1:2::7') // '2001:db8:1:2::/64'
 */
export function addressKeyOf(address: string | undefined): string | undefined {
  if (address === undefined || !ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...network, 0, 0, 0, 0]).toString()}/64`;
}
