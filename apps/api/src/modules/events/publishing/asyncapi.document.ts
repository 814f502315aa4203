import { byType, type ResourceDefinition } from '@app/resource-kit';

type Json = Record<string, unknown>;

// The event action each write operation records.
const ACTIONS = { create: 'created', update: 'updated', delete: 'deleted' } as const;

// Where a resource's messages go (events.recorder.ts): a tenant-scoped one's to its tenant's
// subjects; one whose rows may be of a tenant (`'inherited'`) to both.
function channelsOf(
  definition: ResourceDefinition,
  prefix: string,
  name: string,
): ({ name: string } & Json)[] {
  const shared = { name, address: `${prefix}.${name}` };
  const ofTenant = {
    name: `tenants.${name}`,
    address: `${prefix}.tenants.{tenant}.${name}`,
    parameters: {
      tenant: {
        description:
          'The tenant of the write, percent-encoded but for letters, digits, _ and - (SPEC 1.15)',
      },
    },
  };
  if (definition.tenant === true) return [ofTenant];
  return definition.tenant === 'inherited' ? [shared, ofTenant] : [shared];
}

/**
 * The AsyncAPI 3 description of the messages the service publishes (SPEC 1.14), derived from
 * the declarations as the OpenAPI document is: a channel `<prefix>.<type>.<action>` for each
 * write a resource declares, every message `{"data": <event>}` with the event's schema taken
 * from the OpenAPI document, so that the two documents cannot disagree.
 */
export function buildAsyncApiDocument(
  definitions: readonly ResourceDefinition[],
  openApi: Json,
  subjectPrefix: string,
): Json {
  const schemas = (openApi.components as { schemas: Record<string, Json> }).schemas;
  const info = openApi.info as { title: string; version: string };
  const channels: Json = {};
  const operations: Json = {};
  for (const definition of [...definitions].sort(byType)) {
    for (const [operation, action] of Object.entries(ACTIONS)) {
      if (!definition.operations.has(operation as keyof typeof ACTIONS)) continue;
      const written = `${definition.type}.${action}`;
      for (const { name, ...channel } of channelsOf(definition, subjectPrefix, written)) {
        channels[name] = {
          ...channel,
          title: `${definition.type} ${action}`,
          description: `One message per ${action} ${definition.type} resource, after its write commits.`,
          messages: { event: { $ref: '#/components/messages/event' } },
        };
        operations[`receive.${name}`] = {
          action: 'receive',
          channel: { $ref: `#/channels/${name}` },
          messages: [{ $ref: `#/channels/${name}/messages/event` }],
        };
      }
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: `${info.title}: published events`,
      version: info.version,
      description: [
        'With NATS_URL set, every event the service records (GET /events) is published to NATS',
        'JetStream after its write commits: at least once, in commit order for each resource,',
        'with the event id as Nats-Msg-Id (the stream drops repeats within its duplicate window).',
      ].join(' '),
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: {
      messages: {
        event: {
          name: 'event',
          title: 'An event',
          summary: 'The event as GET /events/{id} shows it, in the `data` member',
          headers: {
            type: 'object',
            required: ['Nats-Msg-Id'],
            properties: {
              'Nats-Msg-Id': { type: 'string', description: 'The event id' },
            },
          },
          payload: {
            type: 'object',
            additionalProperties: false,
            required: ['data'],
            properties: { data: { $ref: '#/components/schemas/events' } },
          },
        },
      },
      schemas: { events: schemas.events },
    },
  };
}
