import { createHash } from 'node:crypto';

// PostgreSQL parses and plans a named statement once per connection, then only binds values.
// Each name costs memory on every pooled connection, so only the first statements get one.
const MAX_NAMED_STATEMENTS = 200;
const names = new Map<string, string>();

/**
 * The name of a prepared statement for `sql`: the same SQL gets the same name, whichever
 * table or write built it; none past the limit.
 */
export function statementNameOf(sql: string): string | undefined {
  const known = names.get(sql);
  if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `kit_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
  names.set(sql, name);
  return name;
}
