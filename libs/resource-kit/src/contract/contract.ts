import { retryHeadersOf } from '../http/retry-headers';
import {
  byType,
  type AccessLevel,
  type MemberLevel,
  type Operation,
  type ResourceDefinition,
} from '../metadata/definition';
import { indexBackingOf } from '../persistence/index-backing';
import { isQueryable } from '../query/queryable-members';

/** One attribute as clients depend on it. */
export interface AttributeContract {
  type: string;
  format: string | null;
  values: string[] | null;
  nullable: boolean;
  requiredOnCreate: boolean;
  writableOnCreate: boolean;
  writableOnPatch: boolean;
  output: string;
  filterable: boolean;
  /**
   * Filters and orders on it read an index; `contains` reads a search index (PostgreSQL).
   * Recorded so that a review sees it; losing one is slower, not breaking.
   */
  indexed?: boolean;
  searchable?: boolean;
  /** Who reads and who writes it (SPEC 1.16); absent in snapshots from before, as `public`. */
  readableBy?: MemberLevel;
  writableBy?: MemberLevel;
  minLength: number | null;
  maxLength: number | null;
  min: number | null;
  max: number | null;
}

export interface ResourceContract {
  operations: Record<string, AccessLevel>;
  attributes: Record<string, AttributeContract>;
  toOne: Record<string, string>;
  toMany: Record<string, string>;
  polymorphic: string[];
  /** Per operation, the headers of SPEC 1.11 it honours (request) and sends (response). */
  headers?: Record<string, { request: string[]; response: string[] }>;
  /** Present when creating the resource is deprecated: since when, and the planned sunset. */
  deprecated?: { create: { since: string; sunset: string | null } };
}

/** The whole wire contract of a service, in a stable, diffable JSON form. */
export interface Contract {
  resources: Record<string, ResourceContract>;
}

/** Describes the contract of these resources (the snapshot file holds its JSON). */
export function describeContract(definitions: readonly ResourceDefinition[]): Contract {
  const typeOf = new Map(definitions.map((definition) => [definition.entity, definition.type]));
  const target = (entity: () => unknown) =>
    typeOf.get(entity() as never) ?? String((entity() as { name?: string }).name);
  const sorted = [...definitions].sort(byType);
  return {
    resources: Object.fromEntries(
      sorted.map((definition) => [
        definition.type,
        {
          operations: Object.fromEntries([...definition.access].sort()),
          attributes: describeAttributes(definition),
          toOne: Object.fromEntries(
            [...definition.toOne].map(([name, a]) => [name, target(a.reference!.target)]),
          ),
          toMany: Object.fromEntries(
            [...definition.toMany].map(([name, r]) => [name, target(r.target)]),
          ),
          polymorphic: definition.polymorphic.map((reference) => reference.name),
          headers: describeHeaders(definition),
          ...(definition.deprecation && {
            deprecated: {
              create: {
                since: definition.deprecation.since,
                sunset: definition.deprecation.sunset ?? null,
              },
            },
          }),
        },
      ]),
    ),
  };
}

function describeHeaders(definition: ResourceDefinition): ResourceContract['headers'] {
  const operations = [...definition.operations].sort();
  return Object.fromEntries(
    operations.map((operation: Operation) => {
      const { request, response } = retryHeadersOf(definition, operation);
      return [operation, { request: [...request], response: [...response] }];
    }),
  );
}

function describeAttributes(definition: ResourceDefinition): Record<string, AttributeContract> {
  const backing = indexBackingOf(definition);
  return Object.fromEntries(
    definition.attributes.map((attribute) => [
      attribute.name,
      {
        ...describeAttribute(attribute),
        indexed: backing.filters.has(attribute.property),
        searchable: backing.searches.has(attribute.property),
        ...(attribute.readableBy && { readableBy: attribute.readableBy }),
        ...(attribute.writableBy && { writableBy: attribute.writableBy }),
      },
    ]),
  );
}

function describeAttribute(attribute: ResourceDefinition['attributes'][number]): AttributeContract {
  return {
    type: attribute.type,
    format: attribute.format ?? null,
    values: attribute.values ? [...attribute.values] : null,
    nullable: attribute.nullable,
    requiredOnCreate: attribute.writable.create && attribute.required,
    writableOnCreate: attribute.writable.create,
    writableOnPatch: attribute.writable.patch,
    output: attribute.output,
    filterable: isQueryable(attribute),
    minLength: attribute.minLength ?? null,
    maxLength: attribute.maxLength ?? null,
    min: attribute.min ?? null,
    max: attribute.max ?? null,
  };
}
