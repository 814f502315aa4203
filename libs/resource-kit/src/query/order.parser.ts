import type { ResourceDefinition } from '../metadata/definition';
import { QueryableMember, queryableMember } from './queryable-members';

export type Direction = 'ASC' | 'DESC';

export interface OrderKey {
  readonly member: QueryableMember;
  readonly direction: Direction;
}

/**
 * Parses `order=name,-created_at` into sort keys. `id` always ends the list, in the
 * direction of the last key, so the order is total and stable. Default: created_at, id.
 */
export function parseOrder(
  text: string | undefined,
  definition: ResourceDefinition,
): { keys: OrderKey[]; problems: string[] } {
  const problems: string[] = [];
  const keys: OrderKey[] = [];
  const createdAt = definition.attributes.find((a) => a.property === 'createdAt')!.name;
  const items = text === undefined ? [createdAt] : text.split(',');
  for (const item of items) {
    const descending = item.startsWith('-');
    const name = descending ? item.slice(1) : item;
    const found = queryableMember(definition, name);
    if ('problem' in found) problems.push(`order: ${found.problem}`);
    else if (keys.some((key) => key.member.name === name))
      problems.push(`order: ${name} appears more than once`);
    else keys.push({ member: found.member, direction: descending ? 'DESC' : 'ASC' });
  }
  const last = keys.at(-1);
  if (last && last.member.name !== 'id') {
    const { member } = queryableMember(definition, 'id') as { member: QueryableMember };
    keys.push({ member, direction: last.direction });
  }
  return { keys, problems };
}
