/** The place of one item in an `InFlight` list; `remove` it when the item is done. */
export interface InFlightEntry {
  remove(): void;
}

interface Link<T> extends InFlightEntry {
  item?: T;
  previous?: Link<T>;
  next?: Link<T>;
}

/**
 * The items in flight (responses not yet closed), as a doubly linked list whose removed links
 * let go of everything. Not a Set: under S1 load a Set here made V8 promote every request and
 * response to the old generation (1.7 MB per young collection; this list, nothing measurable:
 * docs/performance.md, "Memory"). Most likely because a Set that every request passes
 * through is rehashed as it churns and the tables it outgrows keep their entries: once such
 * a table is old, each young object it names outlives young collections until the next full
 * one, with all it reaches.
 */
export class InFlight<T> implements Iterable<T> {
  private head?: Link<T>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(item: T): InFlightEntry {
    const link: Link<T> = { item, next: this.head, remove: () => this.unlink(link) };
    if (this.head) this.head.previous = link;
    this.head = link;
    this.count++;
    return link;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let link = this.head; link; link = link.next) yield link.item!;
  }

  private unlink(link: Link<T>): void {
    if (link.item === undefined) return; // removed already
    if (link.previous) link.previous.next = link.next;
    else this.head = link.next;
    if (link.next) link.next.previous = link.previous;
    link.item = link.previous = link.next = undefined;
    this.count--;
  }
}
