import type { Domain } from './domain';

export const domain: Domain = {
  name: 'integration',
  description: 'The events of every write, their publishing to NATS, and webhooks.',
  folders: ['modules/events', 'modules/webhooks'],
  dependsOn: ['accounts'],
  publicApi: ['modules/events/event.entity.ts'],
};
