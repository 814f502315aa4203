import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { User } from '../users/user.entity';

/** Logging in creates a session (its token is in the POST response only); deleting it logs out. */
@Resource({
  type: 'sessions',
  owner: 'userId',
  access: {
    create: 'public',
    list: 'authenticated',
    read: 'authenticated',
    delete: 'authenticated',
  },
  // A repeated log-in replays the token: never past the token's life, never after log-out.
  idempotency: { expiresWith: 'expiresAt' },
})
export class Session extends ResourceEntity {
  @Attribute({ type: 'string', maxLength: 254, writable: 'create', output: 'never', column: false })
  email?: string;

  @Attribute({ type: 'string', maxLength: 128, writable: 'create', output: 'never', column: false })
  password?: string;

  @ToOne(() => User, { writable: false, onDelete: 'CASCADE' })
  userId!: string;

  /** The relation @ToOne declares beside userId; loaded only on request (token checks). */
  user?: User;

  @Attribute({
    type: 'string',
    maxLength: 4096,
    writable: false,
    output: 'on-create',
    column: false,
  })
  token?: string;

  @Attribute({ type: 'time', writable: false })
  expiresAt!: Date;
}
