import type { EntityManager } from 'typeorm';
import { statementNameOf } from './statement-names';
import { runStatement } from './typeorm-internals';

/** One statement with its values. */
export interface Statement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** A statement whose placeholders start after `offset` others. */
export type PendingStatement = (offset: number) => Statement;

/**
 * Inserts that commit with a write (a created row, its revision, its audit event), sent
 * together when the write's own work is done: on PostgreSQL as one statement (data-modifying
 * WITH clauses, one round trip, prepared by name unless names are off); on SQLite, in
 * process, one after another.
 */
export class WriteBatch {
  private readonly pending: PendingStatement[] = [];

  constructor(
    private readonly combine: boolean,
    private readonly named = false,
  ) {}

  add(statement: PendingStatement): void {
    this.pending.push(statement);
  }

  /** A created row's INSERT: before the rows its hooks recorded, which may refer to it. */
  addFirst(statement: PendingStatement): void {
    this.pending.unshift(statement);
  }

  async flush(manager: EntityManager): Promise<void> {
    const statements = this.pending.splice(0);
    if (!this.combine) {
      for (const statement of statements) {
        const { sql, values } = statement(0);
        await runStatement(manager, sql, values);
      }
      return;
    }
    if (statements.length === 0) return;
    let offset = 0;
    const parts = statements.map((statement) => {
      const part = statement(offset);
      offset += part.values.length;
      return part;
    });
    const last = parts.pop()!;
    const clauses = parts.map((part, i) => `w${i} AS (${part.sql})`);
    const sql = clauses.length > 0 ? `WITH ${clauses.join(', ')} ${last.sql}` : last.sql;
    const values = [...parts.flatMap((p) => p.values), ...last.values];
    await runStatement(manager, sql, values, this.named ? statementNameOf(sql) : undefined);
  }
}
