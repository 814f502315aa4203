import { addressKeyOf } from './client-address';

describe('addressKeyOf', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressKeyOf('10.0.0.1')).toBe('10.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKeyOf('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKeyOf('::ffff:a00:1')).toBe('10.0.0.1');
  });

  it('gives every address of an IPv6 /64 the same key, and neighbours /64s others', () => {
    const key = addressKeyOf('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(key);
    expect(addressKeyOf('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKeyOf('::1')).toBe('::/64');
  });

  it('leaves what is not an address (a test socket, none) as it is', () => {
    expect(addressKeyOf(undefined)).toBeUndefined();
    expect(addressKeyOf('unknown')).toBe('unknown');
  });
});
