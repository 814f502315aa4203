// The public API of resource-kit. Applications import from here only.
export { ResourceKitModule } from './resource-kit.module';
export type { ResourceKitRootOptions } from './resource-kit.module';
export type { ResourceKitOptions } from './resource-kit.options';
export { OPERATIONS_PATHS } from './resource-kit.options';
export { buildOpenApiDocument } from './openapi/openapi.document';
export { OpenApiService } from './openapi/openapi.service';
export { ResourceModule } from './resource.module';
export type { ResourceFeature } from './resource.module';

export { Resource } from './decorators/resource.decorator';
export type { ResourceOptions, ToManyOptions } from './metadata/resource-options';
export { Attribute } from './decorators/attribute.decorator';
export type { AttributeOptions } from './decorators/attribute.decorator';
export { ToOne } from './decorators/to-one.decorator';
export type { ToOneOptions } from './decorators/to-one.decorator';
export { newRow, ResourceEntity } from './decorators/resource-entity';
export { Polymorphic } from './decorators/polymorphic.decorator';
export type { PolymorphicReference } from './decorators/polymorphic.decorator';

export { ResourceService } from './service/resource.service';
export { ResourceRegistry } from './service/resource-registry';
export { ResourceController } from './controller/resource.controller';
export { Override } from './controller/operation';
export { ResourceData } from './controller/resource-data.decorator';
export { ResourceKitAdapter } from './http/resource-kit.adapter';
export type { ResourceKitAdapterOptions } from './http/resource-kit.adapter';
export type { Envelope } from './http/answer';
export type { ResourceRoutes } from './controller/resource.controller';
export type { RecordCondition, RequestContext, WriteContext } from './service/request-context';
export { clientAddressOf } from './service/request-context';
export type { ResourceInput } from './validation/input.parser';
export { KitError, conflict, invalidInput, notFound } from './errors/kit.error';
export type { KitErrorCode } from './errors/kit.error';
export type {
  AttributeDefinition,
  EntityClass,
  Operation,
  ResourceDefinition,
} from './metadata/definition';
export { byType } from './metadata/definition';
export { readResourceDefinition } from './metadata/definition.reader';

export type { AuthOptions, JwtOptions, SessionVerifier } from './auth/auth.options';
export { SESSION_VERIFIER } from './auth/auth.options';
export type { Caller } from './auth/caller';
export { ADMIN_ROLE } from './auth/caller';
export { StaticTokenRegistry } from './auth/static-token.registry';
export { TokenIssuer } from './auth/token.issuer';
export { revisionsOf } from './decorators/revisions.factory';
export type { Transitions } from './metadata/resource-options';
export { WRITE_LISTENER } from './service/write-listener';
export type { WriteAction, WriteEvent, WriteListener } from './service/write-listener';
export { OnWrite, writeReactionsOf } from './service/write-reactions';
export type { WritePhase } from './service/write-reactions';
export {
  CommittedListeners,
  committedListenersOf,
  OnCommitted,
} from './service/committed-listeners';
export type {
  CommittedEvent,
  CommittedListener,
  FoundListener,
} from './service/committed-listeners';
export { TransactionRunner } from './persistence/transaction.runner';
export { isUniqueViolation } from './persistence/database-errors';
export { CostlyQueries } from './persistence/costly-queries';
export {
  declaredSearchIndexes,
  searchIndexMigration,
  type SearchIndex,
} from './persistence/search-indexes';
export { schemaDrift, type SchemaDrift } from './persistence/schema-drift';
export { READ_REPLICAS, type ReadReplicas } from './persistence/read-replicas';
export { serializeResource } from './serialization/resource.serializer';
export type { WireResource } from './serialization/resource.serializer';
export { describeContract } from './contract/contract';
export type { Contract } from './contract/contract';
export { breakingChanges } from './contract/contract.diff';
