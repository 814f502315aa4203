import { conflict, KitError } from '../errors/kit.error';
import type { ResourceDefinition } from '../metadata/definition';
import { ADMIN_ROLE } from '../auth/caller';
import type { ResourceInput } from '../validation/input.parser';

/**
 * Checks a state change against the resource's declared moves: a move that is not listed
 * (including staying put) is 409; a listed one the caller's role may not make is 403.
 */
export function assertTransition(
  definition: ResourceDefinition,
  current: object,
  changes: ResourceInput,
  role: string | undefined,
): void {
  const machine = definition.transitions;
  if (!machine || !changes.has(machine.property)) return;
  const from = String((current as Record<string, unknown>)[machine.property]);
  const to = String(changes.get(machine.property));
  const roles = machine.moves[from]?.[to];
  if (!roles) {
    const allowed = Object.keys(machine.moves[from] ?? {});
    const hint =
      allowed.length > 0
        ? `; from ${from} it may become ${allowed.join(' or ')}`
        : `; ${from} is final`;
    throw conflict(`${definition.type} cannot go from ${from} to ${to}${hint}`);
  }
  if (role !== ADMIN_ROLE && !roles.includes(role ?? '')) {
    throw new KitError('forbidden', [
      `your role may not move ${definition.type} from ${from} to ${to}`,
    ]);
  }
}
