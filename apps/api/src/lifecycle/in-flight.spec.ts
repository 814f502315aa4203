import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('lists what was added and not yet removed, newest first', () => {
    const inFlight = new InFlight<string>();
    const [a, b, c] = ['a', 'b', 'c'].map((item) => inFlight.add(item));
    expect([...inFlight]).toEqual(['c', 'b', 'a']);
    b.remove();
    expect([...inFlight]).toEqual(['c', 'a']);
    c.remove();
    expect([...inFlight]).toEqual(['a']);
    a.remove();
    expect([...inFlight]).toEqual([]);
    expect(inFlight.size).toBe(0);
  });

  it('counts each item once, however often its entry is removed', () => {
    const inFlight = new InFlight<number>();
    const first = inFlight.add(1);
    inFlight.add(2);
    first.remove();
    first.remove();
    expect(inFlight.size).toBe(1);
    expect([...inFlight]).toEqual([2]);
  });

  it('keeps its order when items are removed while a copy of it is walked', () => {
    const inFlight = new InFlight<number>();
    const entries = [1, 2, 3, 4].map((item) => ({ item, entry: inFlight.add(item) }));
    for (const item of [...inFlight]) entries.find((e) => e.item === item)!.entry.remove();
    expect(inFlight.size).toBe(0);
    inFlight.add(5);
    expect([...inFlight]).toEqual([5]);
  });
});
