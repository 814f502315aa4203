import type { DataSource } from 'typeorm';
import type { SqlDialect } from './select.compiler';
import { UNICODE_LOWER } from './sqlite-functions';

export const POSTGRES_DIALECT: SqlDialect = {
  placeholder: (index) => `$${index}`,
  lock: ' FOR UPDATE',
  // ICU's root locale: Unicode's case mapping (as JavaScript's), whatever the database's
  // ctype (LOWER under ctype C folds ASCII only, under a libc locale one letter at a time).
  lower: (expression) => `LOWER(${expression} COLLATE "und-x-icu")`,
  bounded: (statementTimeoutMs) =>
    [
      'SET LOCAL max_parallel_workers_per_gather = 0',
      ...(statementTimeoutMs
        ? [`SET LOCAL statement_timeout = ${Math.trunc(statementTimeoutMs)}`]
        : []),
    ].join('; '),
};

export const SQLITE_DIALECT: SqlDialect = {
  placeholder: () => '?',
  lock: '',
  lower: (expression) => `${UNICODE_LOWER}(${expression})`,
};

export function dialectOf(dataSource: DataSource): SqlDialect {
  return dataSource.options.type === 'better-sqlite3' ? SQLITE_DIALECT : POSTGRES_DIALECT;
}
