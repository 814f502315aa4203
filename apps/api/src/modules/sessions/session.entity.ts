import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { User } from '../users/user.entity';

/** Logging in creates a session (its token is in the POST response only); deleting it logs out. */
@Resource({
  type: 'sessions',
  description:
    'A login: creating one with email and password answers a bearer token (in that answer only); deleting it logs out.',
  owner: 'userId',
  access: {
    create: 'public',
    list: 'authenticated',
    read: 'authenticated',
    delete: 'authenticated',
  },
  // A repeated log-in replays the token: never past the token's life, never after log-out.
  idempotency: { expiresWith: 'expiresAt' },
  answers: {
    create: {
      401: 'Wrong email or password',
      429: 'Too many failed logins for this email or address; Retry-After says when to try again',
    },
  },
})
export class Session extends ResourceEntity {
  @Attribute({
    type: 'string',
    maxLength: 254,
    writable: 'create',
    output: 'never',
    column: false,
    description: 'The email of the user logging in (write-only)',
  })
  email?: string;

  @Attribute({
    type: 'string',
    maxLength: 128,
    writable: 'create',
    output: 'never',
    column: false,
    description: 'The user\u2019s password (write-only)',
  })
  password?: string;

  @ToOne(() => User, {
    writable: false,
    onDelete: 'CASCADE',
    description: 'The user who logged in',
  })
  userId!: string;

  /**
   * The relation @ToOne declares beside userId: on create, the account as its credentials were
   * checked; never loaded otherwise.
   */
  user?: User;

  @Attribute({
    type: 'string',
    maxLength: 4096,
    writable: false,
    output: 'on-create',
    column: false,
    description: 'The bearer token (a JWT) of this session: only in the answer to POST',
  })
  token?: string;

  @Attribute({ type: 'time', writable: false, description: 'When the token stops working' })
  expiresAt!: Date;
}
