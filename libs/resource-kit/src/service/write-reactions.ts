import { Injectable, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { EntityClass } from '../metadata/definition';
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
  return (target, property, descriptor) => {
    const method = descriptor.value as object;
    const targets = (Reflect.getMetadata(WRITE_REACTIONS, method) ?? []) as ReactionTarget[];
    return SetMetadata(WRITE_REACTIONS, [...targets, { entity, phases }])(
      target,
      property,
      descriptor,
    );
  };
}

/** The `@OnWrite` methods a provider class declares, for documents generated from the code. */
export function writeReactionsOf(
  provider: abstract new (...args: never[]) => unknown,
): { method: string; entity: EntityClass; phases: readonly WritePhase[] }[] {
  const prototype = provider.prototype as Record<string, object>;
  return Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const found = Object.getOwnPropertyDescriptor(prototype, method)?.value as object | undefined;
    const targets = (found && Reflect.getMetadata(WRITE_REACTIONS, found)) as
      ReactionTarget[] | undefined;
    return (targets ?? []).map(({ entity, phases }) => ({ method, entity: entity(), phases }));
  });
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
    // A provider aliased (useExisting) is listed once more: its methods react once.
    const instances = new Set<unknown>(
      this.discovery.getProviders().map(({ instance }): unknown => instance),
    );
    for (const instance of instances) {
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, Reaction>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const targets = this.reflector.get<ReactionTarget[] | undefined>(
          WRITE_REACTIONS,
          prototype[name],
        );
        for (const { entity, phases } of targets ?? []) {
          for (const phase of phases) this.add(entity(), phase, prototype[name].bind(instance));
        }
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
