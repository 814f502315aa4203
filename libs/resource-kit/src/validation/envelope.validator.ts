import type { ResourceDefinition } from '../metadata/definition';
import { assertValidOutput, OutputValidationError } from './output.validator';

/** What an answer holds, for its output check: resources of `definition`, just created or not. */
export interface AnswerShape {
  readonly definition: ResourceDefinition;
  readonly created: boolean;
  readonly page: boolean;
}

/**
 * Checks an answer as it is about to be sent: `{data}` holding one resource (or null, a to-one
 * with none), or `{data: [...], cursor}` for a page, each resource against its declaration
 * (SPEC 1.2, 1.5). Throws OutputValidationError, answered as a 500.
 */
export function assertValidEnvelope(shape: AnswerShape, body: unknown): void {
  const { definition, created, page } = shape;
  const problem = envelopeProblem(body, page);
  if (problem) throw new OutputValidationError(definition.type, [problem]);
  const { data } = body as { data: unknown };
  if (Array.isArray(data)) {
    for (const resource of data) assertValidOutput(definition, resource, { created: false });
  } else if (data !== null) {
    assertValidOutput(definition, data, { created });
  }
}

/**
 * The least of the check, kept when the output check is off: an answer that is not an object
 * (an interceptor's string or `null`) is never sent as a resource route's answer.
 */
export function assertEnvelopeObject(shape: AnswerShape, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OutputValidationError(shape.definition.type, ['/ is not an object']);
  }
}

function envelopeProblem(body: unknown, page: boolean): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return '/ is not an object';
  }
  const members = Object.keys(body);
  const allowed = page ? ['data', 'cursor'] : ['data'];
  const extra = members.filter((member) => !allowed.includes(member));
  if (extra.length > 0) return `/ has undeclared members (${extra.join(', ')})`;
  const { data } = body as { data?: unknown };
  if (page ? !Array.isArray(data) : typeof data !== 'object' || Array.isArray(data)) {
    return page ? '/data is not an array' : '/data is not a resource';
  }
  return undefined;
}
