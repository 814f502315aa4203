import { clientAddressOf } from './client-address';

describe('clientAddressOf', () => {
  it('keeps an IPv4 address whole', () => {
    expect(clientAddressOf('10.0.0.1')).toBe('10.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientAddressOf('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientAddressOf('::ffff:a00:1')).toBe('10.0.0.1');
  });

  it('gives every address of an IPv6 /64 the same key, and neighbours /64s others', () => {
    const key = clientAddressOf('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(key);
    expect(clientAddressOf('2001:db8:1:3::1')).not.toBe(key);
    expect(clientAddressOf('::1')).toBe('::/64');
  });

  it('leaves what is not an address (a test socket, none) as it is', () => {
    expect(clientAddressOf(undefined)).toBeUndefined();
    expect(clientAddressOf('unknown')).toBe('unknown');
  });
});
