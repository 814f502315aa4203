import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { EntityClass } from '../metadata/definition';
import { addMark, markedMethods, markedMethodsOf } from './marked-methods';
import type { WriteAction } from './write-listener';

/** What a listener is told of a committed write: its event's id, action and subject. */
export interface CommittedEvent {
  readonly id: string;
  readonly action: WriteAction;
  readonly subject: { readonly type: string; readonly id: string };
}

/** A listener method: given the event, after the write it records has committed. */
export type CommittedListener = (event: CommittedEvent) => Promise<void> | void;

/** A listener found at start: the id a registry records it under, and the method to run. */
export interface FoundListener {
  readonly id: string;
  readonly run: CommittedListener;
}

interface ListenerTarget {
  readonly entity: () => EntityClass;
  readonly actions: readonly WriteAction[];
}

const COMMITTED_LISTENERS = Symbol('resource-kit:committed-listeners');

/**
 * Runs a provider's method after each committed write of another domain's resource (SPEC
 * 1.18), as the host's event publication registry runs it (the shop's events module): at least
 * once, in commit order per subject, its completion recorded; what it throws is logged and it
 * runs again later, as does a listener that a crash cut short. It is given the write's event
 * (its id, action and subject) and does its work in a transaction of its own, so it must be
 * safe to run twice and may find the subject changed again, or gone. Its id, `<Class>.<method>`,
 * is what the registry records: renamed, its incomplete publications are left behind.
 * Where the reaction must be visible in the write's own answer, `@OnWrite` runs it inside the
 * write's transaction instead.
 * @example
 *   @OnCommitted(() => Product, 'updated')
 *   repriceLines({ subject }: CommittedEvent) { return this.reprice(subject.id); }
 */
export function OnCommitted(entity: () => EntityClass, ...actions: WriteAction[]): MethodDecorator {
  return addMark<ListenerTarget>(COMMITTED_LISTENERS, { entity, actions });
}

/** The `@OnCommitted` methods a provider class declares, for documents generated from the code. */
export function committedListenersOf(
  provider: abstract new (...args: never[]) => unknown,
): { method: string; entity: EntityClass; actions: readonly WriteAction[] }[] {
  return markedMethodsOf<ListenerTarget[]>(provider, COMMITTED_LISTENERS).flatMap(
    ({ method, marks }) =>
      marks.map(({ entity, actions }) => ({ method, entity: entity(), actions })),
  );
}

/** The `@OnCommitted` methods of every provider, found when the modules start. */
@Injectable()
export class CommittedListeners implements OnModuleInit {
  private readonly byId = new Map<string, FoundListener>();
  private readonly hearing = new Map<EntityClass, Map<WriteAction, FoundListener[]>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  // At module init, when every provider exists, so that a registry may start at bootstrap.
  onModuleInit(): void {
    const found = markedMethods<ListenerTarget[], CommittedListener>(
      { discovery: this.discovery, scanner: this.scanner, reflector: this.reflector },
      COMMITTED_LISTENERS,
    );
    for (const { instance, name, method, marks } of found) {
      const listener = { id: `${instance.constructor.name}.${name}`, run: method };
      // The id is what a registry records: two instances of one class could not be told apart.
      if (this.byId.has(listener.id))
        throw new Error(`${listener.id} listens twice: provide ${instance.constructor.name} once`);
      this.byId.set(listener.id, listener);
      for (const { entity, actions } of marks) {
        for (const action of actions) this.add(entity(), action, listener);
      }
    }
  }

  /** The ids of the listeners this build has. */
  get ids(): string[] {
    return [...this.byId.keys()];
  }

  /** The listeners that hear `action` on `entity`'s rows. */
  of(entity: EntityClass, action: WriteAction): readonly FoundListener[] {
    return this.hearing.get(entity)?.get(action) ?? [];
  }

  /** The listener recorded as `id`, if this build has it. */
  named(id: string): FoundListener | undefined {
    return this.byId.get(id);
  }

  private add(entity: EntityClass, action: WriteAction, listener: FoundListener): void {
    const actions = this.hearing.get(entity) ?? new Map<WriteAction, FoundListener[]>();
    const heard = actions.get(action) ?? [];
    if (!heard.includes(listener)) actions.set(action, [...heard, listener]);
    this.hearing.set(entity, actions);
  }
}
