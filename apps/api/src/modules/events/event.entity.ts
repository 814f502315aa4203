import { Attribute, Polymorphic, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import type { PolymorphicReference } from '@app/resource-kit';
import { User } from '../users/user.entity';

export const EVENT_ACTIONS = ['created', 'updated', 'deleted'] as const;

/** One per successful POST, PATCH or DELETE, written in the same transaction. */
@Resource({
  type: 'events',
  owner: 'userId',
  access: { list: 'authenticated', read: 'authenticated' },
  indexes: [['userId', 'createdAt', 'id']],
})
export class Event extends ResourceEntity {
  @Attribute({ type: 'enum', values: EVENT_ACTIONS, writable: false })
  action!: (typeof EVENT_ACTIONS)[number];

  @Polymorphic()
  subject!: PolymorphicReference;

  // No foreign key: the history of a deleted user stays readable to administrators.
  @ToOne(() => User, { writable: false, foreignKey: false })
  userId!: string;

  @Attribute({ type: 'time', writable: false })
  occurredAt!: Date;
}
