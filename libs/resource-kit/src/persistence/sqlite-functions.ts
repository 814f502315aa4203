import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** SQLite's LOWER folds ASCII only; the kit's `contains` folds as JavaScript does. */
export const UNICODE_LOWER = 'unicode_lower';

interface SqliteConnection {
  function(
    name: string,
    options: { deterministic: boolean },
    implementation: (value: unknown) => unknown,
  ): void;
}

/** Adds the kit's SQL functions to the embedded database's connection (better-sqlite3). */
@Injectable()
export class SqliteFunctions implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    if (this.dataSource.options.type !== 'better-sqlite3') return;
    const connection = this.dataSource.driver as unknown as {
      databaseConnection: SqliteConnection;
    };
    connection.databaseConnection.function(UNICODE_LOWER, { deterministic: true }, (value) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
  }
}
