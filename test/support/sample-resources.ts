import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AttributeDefinition, ResourceDefinition, ResourceRegistry } from '@app/resource-kit';
import { ADMIN_TOKEN } from './shop-client';
import type { TestApp } from './test-app';

/**
 * Creates a row of `type` as an administrator (or as the caller of `token`, who then owns an
 * owned row), with the least input its declaration requires (and, first, a row of every
 * resource it must point at, as an administrator): for the specs of a resource that belongs
 * to another one, whatever that one's attributes are.
 */
export async function createSample(
  service: TestApp,
  type: string,
  token = ADMIN_TOKEN,
): Promise<{ id: string }> {
  const definitions = service.app.get(ResourceRegistry).definitions();
  const definition = definitions.find((candidate) => candidate.type === type);
  if (!definition) throw new Error(`no resource of type ${type}`);
  const data: Record<string, unknown> = {};
  for (const attribute of definition.attributes) {
    if (!attribute.required || !attribute.writable.create) continue;
    data[attribute.name] = attribute.reference
      ? (await createSample(service, typeOf(definitions, attribute.reference.target))).id
      : sampleValue(attribute);
  }
  const response = await request(service.http)
    .post(`/${type}`)
    .set('Authorization', `Bearer ${token}`)
    .send({ data });
  if (response.status !== 201) {
    throw new Error(`sample ${type}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as { id: string };
}

function typeOf(definitions: ResourceDefinition[], target: () => unknown): string {
  return definitions.find((definition) => definition.entity === target())!.type;
}

function sampleValue(attribute: AttributeDefinition): unknown {
  switch (attribute.type) {
    case 'string': {
      if (attribute.format === 'email') return `sample-${randomUUID()}@example.com`;
      const text = `sample ${randomUUID()}`.padEnd(attribute.minLength ?? 0, '.');
      return text.slice(0, attribute.maxLength);
    }
    case 'integer':
    case 'number':
      return Math.min(Math.max(0, attribute.min ?? 0), attribute.max ?? Infinity);
    case 'boolean':
      return false;
    case 'date':
      return '2026-01-31';
    case 'time':
      return '2026-01-31T12:00:00Z';
    case 'enum':
      return attribute.values![0];
    case 'ids':
      throw new Error(`${attribute.name}: a sample cannot choose the ids of a list`);
  }
}
