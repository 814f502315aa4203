// Rewrites a PostgreSQL migration TypeORM generated so that it runs under live traffic
// (SPEC 1.19; README, "Database migrations"), for `npm run migration:generate`:
// - an index on a table the migration does not create moves to a second migration that runs
//   outside a transaction (`transaction = false`) and builds it `CONCURRENTLY`, after dropping
//   an invalid one a failed build may have left (a re-run builds it again);
// - a foreign key or check added to such a table is added `NOT VALID`, and validated in that
//   second migration, without blocking writes.
// Statements on a table the migration creates stay as they are: it is empty and unseen.
// scripts/migration-generate.mjs runs it from the build; text in, text out.

const QUERY = /( *)await queryRunner\.query\(`\n?([\s\S]*?)\n? *`\);\n/g;

interface Statement {
  /** The whole call, as the source has it. */
  readonly text: string;
  readonly sql: string;
  /** Where the call starts in the source. */
  readonly at: number;
}

interface Edit {
  readonly at: number;
  readonly text: string;
  readonly by: string;
}

/** The statements of a method's body, each with where it is in the source. */
function statementsOf(source: string, method: 'up' | 'down'): Statement[] {
  const start = source.indexOf(`public async ${method}(`);
  const end = source.indexOf('\n    }\n', start);
  return [...source.slice(start, end + 1).matchAll(QUERY)].map((match) => ({
    text: match[0],
    sql: match[2].trim(),
    at: start + match.index,
  }));
}

/**
 * `{ source, online }`: the migration rewritten, and the source of its online follow-up
 * (`undefined` when it needs none), whose class is `<name>Online<timestamp>`.
 */
export function onlineMigration(
  source: string,
  { name, timestamp }: { name: string; timestamp: number },
): { source: string; online?: string } {
  const up = statementsOf(source, 'up');
  const down = statementsOf(source, 'down');
  const created = new Set(
    up.flatMap(({ sql }) => [...sql.matchAll(/^CREATE TABLE "([^"]+)"/g)].map((m) => m[1])),
  );
  const edits: Edit[] = [];
  const validate: string[] = [];
  const indexes: { name: string; create: string }[] = [];
  for (const statement of up) {
    const index = statement.sql.match(
      /^CREATE (UNIQUE )?INDEX (?:IF NOT EXISTS )?"([^"]+)"\s+ON "([^"]+)"([\s\S]*)$/,
    );
    if (index && !created.has(index[3])) {
      const [, unique = '', indexName, table, rest] = index;
      indexes.push({
        name: indexName,
        create: `CREATE ${unique}INDEX CONCURRENTLY IF NOT EXISTS "${indexName}" ON "${table}"${rest}`,
      });
      edits.push({ at: statement.at, text: statement.text, by: '' });
      continue;
    }
    const constraint = statement.sql.match(
      /^ALTER TABLE "([^"]+)"\s+ADD CONSTRAINT "([^"]+)"\s+(?:FOREIGN KEY|CHECK)[\s\S]*$/,
    );
    if (constraint && !created.has(constraint[1]) && !/NOT VALID$/.test(statement.sql)) {
      validate.push(
        // Outside a transaction squawk asks for a statement a re-run can repeat: this one can.
        '-- squawk-ignore prefer-robust-stmts: validating a constraint again does nothing\n            ' +
          `ALTER TABLE "${constraint[1]}" VALIDATE CONSTRAINT "${constraint[2]}"`,
      );
      const by = statement.text.replace(statement.sql, `${statement.sql} NOT VALID`);
      edits.push({ at: statement.at, text: statement.text, by });
    }
  }
  const moved = new Set(indexes.map((index) => index.name));
  for (const statement of down) {
    const dropped = statement.sql.match(/^DROP INDEX "([^"]+)"$/);
    if (dropped && moved.has(dropped[1]))
      edits.push({ at: statement.at, text: statement.text, by: '' });
  }
  let rewritten = source;
  for (const { at, text, by } of edits.sort((a, b) => b.at - a.at)) {
    rewritten = rewritten.slice(0, at) + by + rewritten.slice(at + text.length);
  }
  if (validate.length === 0 && indexes.length === 0) return { source, online: undefined };
  const online = followUp(`${name}Online${timestamp}`, {
    up: [
      ...validate,
      ...indexes.flatMap((index) => [
        `DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`,
        index.create,
      ]),
    ],
    down: indexes.toReversed().map((index) => `DROP INDEX CONCURRENTLY IF EXISTS "${index.name}"`),
  });
  return { source: rewritten, online };
}

function followUp(className: string, { up, down }: { up: string[]; down: string[] }): string {
  const queries = (statements: string[]) =>
    statements
      .map((sql) => `        await queryRunner.query(\`\n            ${sql}\n        \`);\n`)
      .join('');
  return `import { MigrationInterface, QueryRunner } from "typeorm";

// The online part of the migration before it (README, "Database migrations"): constraints
// validated and indexes built without blocking writes, outside a transaction, as PostgreSQL
// requires of CONCURRENTLY. Safe to run again after a failure: an index left invalid is
// dropped and built anew.
export class ${className} implements MigrationInterface {
    name = '${className}'
    transaction = false

    public async up(queryRunner: QueryRunner): Promise<void> {
${queries(up)}    }

    public async down(queryRunner: QueryRunner): Promise<void> {
${queries(down)}    }

}
`;
}
