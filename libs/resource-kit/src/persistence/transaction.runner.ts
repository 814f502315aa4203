import { Inject, Injectable } from '@nestjs/common';
import {
  DataSource,
  EntityManager,
  ObjectLiteral,
  QueryFailedError,
  SelectQueryBuilder,
} from 'typeorm';
import { RESOURCE_KIT_OPTIONS, type ResolvedKitOptions } from '../resource-kit.options';
import { WriteBatch } from './write.batch';

// PostgreSQL serialization failure and deadlock: the transaction may simply be run again.
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 3;

/**
 * Runs write transactions. On PostgreSQL, a transaction that lost a serialization race or a
 * deadlock is retried (three attempts in all). SQLite has a single connection, where a
 * second concurrent transaction would silently nest as a savepoint inside the first: there,
 * transactions run one after another.
 */
@Injectable()
export class TransactionRunner {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(RESOURCE_KIT_OPTIONS) private readonly options: ResolvedKitOptions,
  ) {}

  run<R>(work: (manager: EntityManager) => Promise<R>): Promise<R> {
    if (!this.isSqlite) return this.withRetries(work);
    const result = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Collects the inserts that go with one write, combined where the engine allows. */
  batch(): WriteBatch {
    return new WriteBatch(!this.isSqlite, this.options.namedStatements);
  }

  /** Locks rows for the rest of the transaction (SELECT ... FOR UPDATE); SQLite locks whole writes anyway. */
  lockForUpdate<T extends ObjectLiteral>(query: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return this.isSqlite ? query : query.setLock('pessimistic_write');
  }

  private get isSqlite(): boolean {
    return this.dataSource.options.type === 'better-sqlite3';
  }

  private async withRetries<R>(work: (manager: EntityManager) => Promise<R>): Promise<R> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.dataSource.transaction(work);
      } catch (error) {
        const code =
          error instanceof QueryFailedError
            ? (error.driverError as { code?: string }).code
            : undefined;
        if (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code)) throw error;
      }
    }
  }
}
