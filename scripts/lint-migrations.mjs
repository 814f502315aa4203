// `npm run lint:migrations`: every PostgreSQL migration linted for locks by squawk (SPEC 1.19),
// with the rule set of .squawk.toml. A migration is TypeScript; its SQL is the text of its
// `up` method's `queryRunner.query(...)` calls, which this script hands to squawk at the same
// line numbers, so that each finding names the migration's own file and line.
//
// A rule a migration breaks on purpose is waived in its SQL, on the line before the statement,
// with a reason: `-- squawk-ignore require-concurrent-index-creation: the table is new and
// empty`. A waiver without a reason is itself refused.
//
// Usage: node scripts/lint-migrations.mjs [folder] (default: the service's PostgreSQL
// migrations).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const folder =
  process.argv[2] ?? join(root, 'apps', 'api', 'src', 'database', 'migrations', 'postgres');

// Migrations applied before the lint existed: history, run as they are on a new database and
// never again on a live one, so not linted (their timestamp is at most this one).
const APPLIED_BEFORE_THE_LINT = 1795765609480;

const WAIVER = /--\s*squawk-ignore\s+([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)(\s*:\s*(\S.*))?$/gm;

/** A migration's SQL, line for line where the TypeScript holds it, and how it runs. */
function extract(file) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const statements = [];
  const problems = [];
  let transaction = true;
  const visit = (node) => {
    if (
      ts.isPropertyDeclaration(node) &&
      node.name.getText() === 'transaction' &&
      node.initializer?.kind === ts.SyntaxKind.FalseKeyword
    ) {
      transaction = false;
    }
    if (ts.isMethodDeclaration(node) && node.name.getText() === 'down') return;
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'query' &&
      node.arguments.length > 0
    ) {
      const [sql] = node.arguments;
      const line = source.getLineAndCharacterOfPosition(sql.getStart()).line;
      if (ts.isNoSubstitutionTemplateLiteral(sql) || ts.isStringLiteral(sql)) {
        statements.push({ line, text: sql.text });
      } else {
        problems.push(
          `${file}:${line + 1}:1: the SQL is computed, so it cannot be linted: write it out`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { statements, transaction, problems };
}

/** The SQL squawk reads: each statement at its line, each waiver without its reason. */
function sqlOf(file, statements, problems) {
  let sql = '';
  let line = 0;
  for (const statement of statements) {
    while (line < statement.line) {
      sql += '\n';
      line += 1;
    }
    const text = statement.text.replace(WAIVER, (_, rules, reason, because, offset, whole) => {
      if (!because) {
        const at = line + whole.slice(0, offset).split('\n').length;
        problems.push(`${file}:${at}:1: the waiver of ${rules} gives no reason: add \`: <why>\``);
      }
      return `-- squawk-ignore ${rules}${' '.repeat((reason ?? '').length)}`;
    });
    sql += `${text.replace(/;\s*$/, '')};`;
    line += text.split('\n').length - 1;
  }
  return `${sql}\n`;
}

function migrationsToLint() {
  return readdirSync(folder)
    .filter((name) => /^\d+-.*\.ts$/.test(name))
    .filter((name) => Number(name.split('-')[0]) > APPLIED_BEFORE_THE_LINT)
    .sort()
    .map((name) => join(folder, name));
}

function squawk(files, inTransaction) {
  if (files.length === 0) return { status: 0, findings: [] };
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'squawk'),
    [
      '--config',
      join(root, '.squawk.toml'),
      '--reporter',
      'gcc',
      ...(inTransaction ? ['--assume-in-transaction'] : []),
      ...files,
    ],
    { encoding: 'utf8' },
  );
  if (result.error) throw result.error;
  const findings = result.stdout
    .split('\n')
    .filter((line) => /:\d+:\d+: (warning|error): /.test(line));
  return { status: result.status, findings };
}

const scratch = mkdtempSync(join(tmpdir(), 'lint-migrations-'));
try {
  const problems = [];
  const byScratch = new Map();
  const runs = { true: [], false: [] };
  for (const file of migrationsToLint()) {
    const { statements, transaction, problems: found } = extract(file);
    problems.push(...found);
    const sqlFile = join(scratch, `${basename(file, '.ts')}.sql`);
    writeFileSync(sqlFile, sqlOf(file, statements, problems));
    byScratch.set(sqlFile, relative(root, file));
    runs[String(transaction)].push(sqlFile);
  }
  const results = [squawk(runs.true, true), squawk(runs.false, false)];
  for (const finding of results.flatMap(({ findings }) => findings)) {
    // squawk's lines and columns count from 0.
    const [, sqlFile, line, column, rest] = finding.match(
      /^(.*?):(\d+):(\d+): (?:warning|error): (.*)$/,
    );
    const [rule, ...message] = rest.split(' ');
    problems.push(
      `${byScratch.get(sqlFile) ?? sqlFile}:${Number(line) + 1}:${Number(column) + 1}: ${rule}: ${message.join(' ')} ` +
        `(https://squawkhq.com/docs/${rule}; the README's "Database migrations" says how to write it safely, or to waive the rule with a reason)`,
    );
  }
  const failed = results.some(({ status, findings }) => status !== 0 && findings.length === 0);
  if (failed) throw new Error('squawk failed without a finding');
  if (problems.length > 0) {
    process.stderr.write(
      `${problems.join('\n')}\n${problems.length} problem(s) in the migrations\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`${byScratch.size} migration(s) linted, no problem\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
