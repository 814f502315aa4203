import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { EntityClass } from '../metadata/definition';
import { addMark, markedMethods, markedMethodsOf } from './marked-methods';
import type { WriteContext } from './request-context';

/**
 * When a reaction runs within another resource's write: before the row is inserted, saved or
 * deleted (`creating`, `updating`, `deleting`: a throw refuses the write), or after
 * (`created`, `updated`, `deleted`), always inside the write's transaction.
 */
export type WritePhase = 'creating' | 'created' | 'updating' | 'updated' | 'deleting' | 'deleted';

interface ReactionTarget {
  readonly entity: () => EntityClass;
  readonly phases: readonly WritePhase[];
}

type Reaction = (entity: object, write: WriteContext) => Promise<void> | void;

const WRITE_REACTIONS = Symbol('resource-kit:write-reactions');

/**
 * Runs a provider's method inside every write of another module's resource, in its
 * transaction: what one domain does when another's rows change, declared by the domain that
 * reacts, so that the one written need not know it (SPEC 1.18). The method is given the row
 * and the write's context (`manager` writes in the same transaction); what it throws answers
 * the request, and nothing of the write stays.
 * @example
 *   @OnWrite(() => User, 'created')
 *   openCart(user: User, { manager }: WriteContext) { return manager.insert(Cart, newCart(user)); }
 */
export function OnWrite(entity: () => EntityClass, ...phases: WritePhase[]): MethodDecorator {
  return addMark<ReactionTarget>(WRITE_REACTIONS, { entity, phases });
}

/** The `@OnWrite` methods a provider class declares, for documents generated from the code. */
export function writeReactionsOf(
  provider: abstract new (...args: never[]) => unknown,
): { method: string; entity: EntityClass; phases: readonly WritePhase[] }[] {
  return markedMethodsOf<ReactionTarget[]>(provider, WRITE_REACTIONS).flatMap(({ method, marks }) =>
    marks.map(({ entity, phases }) => ({ method, entity: entity(), phases })),
  );
}

/** The `@OnWrite` methods of every provider, found once the service has started. */
@Injectable()
export class WriteReactions implements OnApplicationBootstrap {
  private readonly byEntity = new Map<EntityClass, Map<WritePhase, Reaction[]>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const found = markedMethods<ReactionTarget[], Reaction>(
      { discovery: this.discovery, scanner: this.scanner, reflector: this.reflector },
      WRITE_REACTIONS,
    );
    for (const { method, marks } of found) {
      for (const { entity, phases } of marks) {
        for (const phase of phases) this.add(entity(), phase, method);
      }
    }
  }

  /** Whether anything reacts to `entity`'s writes in `phase`. */
  has(entity: EntityClass, phase: WritePhase): boolean {
    return (this.byEntity.get(entity)?.get(phase)?.length ?? 0) > 0;
  }

  /** Runs the reactions to a write of `entity`'s `row` in `phase`, one after the other. */
  async run(
    entity: EntityClass,
    phase: WritePhase,
    row: object,
    write: WriteContext,
  ): Promise<void> {
    const reactions = this.byEntity.get(entity)?.get(phase) ?? [];
    for (const reaction of reactions) await reaction(row, write);
  }

  private add(entity: EntityClass, phase: WritePhase, reaction: Reaction): void {
    const phases = this.byEntity.get(entity) ?? new Map<WritePhase, Reaction[]>();
    this.byEntity.set(entity, phases.set(phase, [...(phases.get(phase) ?? []), reaction]));
  }
}
