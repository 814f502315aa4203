import { Attribute, Polymorphic, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import type { PolymorphicReference } from '@app/resource-kit';
import { User } from '../users/user.entity';

export const EVENT_ACTIONS = ['created', 'updated', 'deleted'] as const;

/**
 * One per successful POST, PATCH or DELETE, written in the same transaction. The event of a
 * tenant-scoped resource's write is that tenant's (SPEC 1.15): no caller of another sees it.
 */
@Resource({
  type: 'events',
  description:
    'The audit trail: one per successful POST, PATCH or DELETE. Administrators see all, a customer their own.',
  owner: 'userId',
  tenant: 'inherited',
  tenantlessRows: 'readable',
  access: { list: 'authenticated', read: 'authenticated' },
  indexes: [['userId', 'createdAt', 'id']],
})
export class Event extends ResourceEntity {
  @Attribute({
    type: 'enum',
    values: EVENT_ACTIONS,
    writable: false,
    description: 'What happened to the subject',
  })
  action!: (typeof EVENT_ACTIONS)[number];

  @Polymorphic({ description: 'The resource the request addressed or created' })
  subject!: PolymorphicReference;

  // No foreign key: the history of a deleted user stays readable to administrators.
  @ToOne(() => User, {
    writable: false,
    foreignKey: false,
    description: 'The user the request acted for (for a sign-up or log-in, that user)',
  })
  userId!: string;

  @Attribute({ type: 'time', writable: false, description: 'When it happened' })
  occurredAt!: Date;
}
