import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReceiverPolicy } from './receiver-address';
import { attemptDelivery } from './webhook-sender';

const NOT_PUBLIC = 'not a public address, and the configuration does not allow it';

describe('ReceiverPolicy', () => {
  const strict = new ReceiverPolicy([]);

  it('takes https URLs, and plain http only to hosts it allows', () => {
    expect(strict.urlProblem('https://hooks.example.com/in')).toBeUndefined();
    expect(strict.urlProblem('http://hooks.example.com/in')).toBe(
      'must be https (plain http only to hosts the configuration allows)',
    );
    expect(new ReceiverPolicy(['hooks.example.com']).urlProblem('http://hooks.example.com/')).toBe(
      undefined,
    );
    expect(strict.urlProblem('https://user:pw@hooks.example.com/')).toBe(
      'must not carry a user name or password',
    );
    expect(strict.urlProblem('hooks.example.com')).toBe('must be an absolute URL');
  });

  it('judges addresses by range: public unicast only, unless the host is allowed', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fc00::1',
      '0.0.0.0',
      '::ffff:127.0.0.1',
      // IPv4-compatible, NAT64, 6to4, Teredo, documentation and discard blocks
      '::127.0.0.1',
      '::7f00:1',
      '::8.8.8.8',
      '64:ff9b::a00:1',
      '64:ff9b:1::1',
      '2002:a00:1::1',
      '2001::1',
      '2001:db8::1',
      '100::1',
      '4000::1',
    ]) {
      expect([address, strict.reaches(address, address)]).toEqual([address, false]);
    }
    expect(strict.reaches('1.1.1.1', '1.1.1.1')).toBe(true);
    expect(strict.reaches('2606:4700::1111', '2606:4700::1111')).toBe(true);
    expect(new ReceiverPolicy(['hooks.internal']).reaches('hooks.internal', '10.1.2.3')).toBe(true);
  });

  it('refuses at connection time a name that resolves to a refused address', async () => {
    const answer = await strict.addressProblem('localhost');
    expect(answer).toMatch(
      new RegExp(`^host localhost resolves to (127\\.0\\.0\\.1|::1), ${NOT_PUBLIC}$`),
    );
    const server = createServer((_request, response) => response.end());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    let reached = false;
    server.on('request', () => (reached = true));
    const { port } = server.address() as AddressInfo;
    const delivery = {
      url: `https://localhost:${port}/`,
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      messageId: 'msg_1',
      payload: '{}',
    };
    const outcome = await attemptDelivery(delivery, strict, 2_000, new AbortController().signal);
    expect(outcome.status).toBeUndefined();
    expect(outcome.failure).toMatch(/^host localhost resolves to/);
    const literal = await attemptDelivery(
      { ...delivery, url: `http://127.0.0.1:${port}/` },
      strict,
      2_000,
      new AbortController().signal,
    );
    expect(literal.failure).toBe(`127.0.0.1 is ${NOT_PUBLIC}`);
    expect(reached).toBe(false);
    const allowed = await attemptDelivery(
      { ...delivery, url: `http://localhost:${port}/` },
      new ReceiverPolicy(['localhost']),
      2_000,
      new AbortController().signal,
    );
    expect(allowed.status).toBe(200);
    expect(reached).toBe(true);
    server.close();
  });
});
