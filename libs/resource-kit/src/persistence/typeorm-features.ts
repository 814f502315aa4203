import type { DataSource } from 'typeorm';
import type { ResourceDefinition } from '../metadata/definition';

const HOOKS =
  'the resource service\u2019s hooks (beforeCreate, beforeUpdate, beforeDelete, afterWrite)';

/**
 * The TypeORM features that would not apply to a resource, whose rows the kit writes with
 * statements of its own (persistence/table-writes.ts): entity listeners, subscribers that
 * listen to it, version and soft-delete columns. Each is refused at start, naming what to use
 * instead, rather than silently skipped (docs: the kit README's feature table).
 */
export function unsupportedTypeOrmFeatures(
  dataSource: DataSource,
  definition: ResourceDefinition,
): string[] {
  const { entity } = definition;
  const metadata = dataSource.getMetadata(entity);
  const problems = metadata.listeners.map(
    (listener) =>
      `${entity.name}.${listener.propertyName} is a TypeORM @${decoratorOf(listener.type)} listener: use ${HOOKS}`,
  );
  for (const subscriber of dataSource.subscribers) {
    const target = subscriber.listenTo?.();
    const listens =
      target === undefined ||
      target === entity ||
      (typeof target === 'function' && entity.prototype instanceof target);
    if (listens) {
      problems.push(
        `the TypeORM subscriber ${subscriber.constructor.name} listens to ${entity.name}: narrow its listenTo() to entities that are not resources, and use ${HOOKS} or a WRITE_LISTENER`,
      );
    }
  }
  if (metadata.versionColumn) {
    problems.push(
      `${entity.name}.${metadata.versionColumn.propertyName} is a @VersionColumn: resources use ETag and If-Match (SPEC 1.11) instead`,
    );
  }
  if (metadata.deleteDateColumn) {
    problems.push(
      `${entity.name}.${metadata.deleteDateColumn.propertyName} is a @DeleteDateColumn: a resource's DELETE removes its row; keep history with @Resource({ history })`,
    );
  }
  return problems;
}

// 'before-insert' -> BeforeInsert
function decoratorOf(type: string): string {
  return type.replace(/(^|-)(\w)/g, (_match, _dash: string, letter: string) =>
    letter.toUpperCase(),
  );
}
