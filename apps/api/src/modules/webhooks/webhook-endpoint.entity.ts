import { Column } from 'typeorm';
import { Attribute, Resource, ResourceEntity } from '@app/resource-kit';
import { EVENT_ACTIONS } from '../events/event.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

const ADMINS_ONLY = {
  list: 'admin',
  create: 'admin',
  read: 'admin',
  update: 'admin',
  delete: 'admin',
} as const;

/**
 * Where events are delivered over HTTP (SPEC 1.17): every event its filters match. An
 * endpoint made by an administrator of a tenant is that tenant's (SPEC 1.15): it receives the
 * events of no tenant and of its own, and only its tenant sees it.
 */
@Resource({
  type: 'webhook_endpoints',
  description:
    'An HTTP endpoint that receives every event its subject_type and action match, signed as Standard Webhooks. Administrators only.',
  access: ADMINS_ONLY,
  tenant: 'inherited',
  toMany: { webhook_deliveries: { target: () => WebhookDelivery, inverse: 'webhookEndpointId' } },
})
export class WebhookEndpoint extends ResourceEntity {
  @Attribute({
    type: 'string',
    maxLength: 2048,
    description:
      'Where deliveries are POSTed: an https URL (plain http only to hosts the configuration allows)',
  })
  url!: string;

  @Attribute({
    type: 'string',
    maxLength: 64,
    optional: true,
    nullable: true,
    description: 'Only events whose subject is of this resource type; every type when null',
  })
  subjectType!: string | null;

  @Attribute({
    type: 'enum',
    values: EVENT_ACTIONS,
    optional: true,
    nullable: true,
    description: 'Only events of this action; every action when null',
  })
  action!: (typeof EVENT_ACTIONS)[number] | null;

  @Attribute({
    type: 'enum',
    values: ENDPOINT_STATUSES,
    writable: 'patch',
    description:
      'active on create; disabled by an administrator, or by the service after 5 days of failed deliveries',
  })
  status!: EndpointStatus;

  @Attribute({
    type: 'string',
    maxLength: 64,
    writable: false,
    output: 'on-create',
    description:
      'The signing secret (whsec_ and base64, as Standard Webhooks defines it): in the answer to POST only',
  })
  secret!: string;

  @Attribute({
    type: 'string',
    maxLength: 500,
    optional: true,
    nullable: true,
    description: 'What the endpoint is for',
  })
  description!: string | null;

  /** Its creator's tenant, if any (the kit's column). */
  declare readonly tenantId: string | null;

  /** Since when every attempt to deliver here has failed; null after a success. */
  @Column({ name: 'failing_since', type: Date, nullable: true })
  failingSince!: Date | null;
}
