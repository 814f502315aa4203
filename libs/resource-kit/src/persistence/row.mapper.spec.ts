import { createRowMapper } from './row.mapper';

class Widget {
  name!: string;
  subjectType!: string | null;
  get subject() {
    return this.subjectType;
  }
}

describe('createRowMapper', () => {
  const mapRow = createRowMapper<Widget>(Widget.prototype, [
    { property: 'name' },
    { property: 'subjectType' },
    { property: 'active', hydrate: (value) => value === 1 },
    { property: 'createdAt', hydrate: (value) => new Date(`${String(value)}Z`) },
  ]);

  it('builds an object of the entity class from a row of values in column order', () => {
    const widget = mapRow(['spanner', 'gadgets', 1, '2026-01-02 03:04:05.678']);
    expect(widget).toBeInstanceOf(Widget);
    expect(widget.subject).toBe('gadgets');
    expect({ ...widget }).toEqual({
      name: 'spanner',
      subjectType: 'gadgets',
      active: true,
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
    });
  });

  it('leaves null values null without converting them', () => {
    const widget = mapRow(['x', null, null, null]);
    expect({ ...widget }).toEqual({ name: 'x', subjectType: null, active: null, createdAt: null });
  });

  it('names a property that is no identifier as it is', () => {
    const odd = createRowMapper<Record<string, unknown>>(Object.prototype, [
      { property: 'with "quotes" and \\ a\nline' },
    ]);
    expect({ ...odd(['kept']) }).toEqual({ 'with "quotes" and \\ a\nline': 'kept' });
  });
});
