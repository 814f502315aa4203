import { eventSubject } from './events.recorder';

describe('eventSubject', () => {
  it('names a shared event by type and action', () => {
    expect(eventSubject('shop.events', 'orders', 'created')).toBe('shop.events.orders.created');
  });

  it("puts a tenant's event under the tenant, as one token of its own", () => {
    expect(eventSubject('shop.events', 'notes', 'updated', 'acme')).toBe(
      'shop.events.tenants.acme.notes.updated',
    );
    // Nothing a tenant is named can add a token or a wildcard, or read as another name.
    expect(eventSubject('p', 'notes', 'created', 'a.b*c> d')).toBe(
      'p.tenants.a%2Eb%2Ac%3E%20d.notes.created',
    );
    expect(eventSubject('p', 'notes', 'created', "Zürich!~'()%")).toBe(
      'p.tenants.Z%C3%BCrich%21%7E%27%28%29%25.notes.created',
    );
  });
});
