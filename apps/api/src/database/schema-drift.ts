import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { ResourceRegistry, schemaDrift, type SchemaDrift } from '@app/resource-kit';

const COMMAND = 'npm run migration:generate -- <Name>';

/**
 * The entities against the database at start, once the migrations have run: what an entity
 * declares and no migration has made yet (a member added in `npm run dev`, its migration not
 * written).
 */
export async function driftOf(app: INestApplication): Promise<SchemaDrift[]> {
  return schemaDrift(app.get(DataSource), app.get(ResourceRegistry).definitions());
}

/** Development's line for each: what is missing and the command that writes its migration. */
export function driftLines(drift: readonly SchemaDrift[]): string[] {
  return drift.map(
    ({ what }) =>
      `Schema drift: ${what} is declared but not in the database: write its migration with ${COMMAND}`,
  );
}

/** Why a start outside development refuses: the code needs a migration it does not have. */
export function driftRefusal(drift: readonly SchemaDrift[]): string {
  const missing = drift.map(({ what }) => what).join('; ');
  return `the database lacks what the entities declare (a migration is missing): ${missing}; write it with ${COMMAND}`;
}

/**
 * In development, a resource whose table or column is missing answers 503 naming it, where
 * every request would otherwise fail on the database with a bare 500. Other resources serve.
 * Its middleware goes in before Nest's routes; what is missing is known once the resources
 * have registered, at init.
 */
export class DriftedResources {
  private readonly missing = new Map<string, string[]>();
  private readonly prefix: string;

  constructor(basePath: string) {
    this.prefix = basePath.endsWith('/') ? basePath : `${basePath}/`;
  }

  add(drift: readonly SchemaDrift[]): void {
    for (const { resource, what } of drift) {
      if (resource) this.missing.set(resource, [...(this.missing.get(resource) ?? []), what]);
    }
  }

  readonly answer = (request: Request, response: Response, next: NextFunction): void => {
    const path = request.path.startsWith(this.prefix) ? request.path.slice(this.prefix.length) : '';
    const missing = this.missing.get(path.split('/')[0]);
    if (!missing) return next();
    response.status(503).json({
      error: missing.map(
        (what) => `${what} has no migration yet: write it with ${COMMAND}, then restart`,
      ),
    });
  };
}
