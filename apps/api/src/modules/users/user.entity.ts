import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Cart } from '../carts/cart.entity';
import { Column } from 'typeorm';
import { Session } from '../sessions/session.entity';

export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

@Resource({
  type: 'users',
  description:
    'A customer account: signing up creates it with its cart. A customer sees and changes only their own.',
  owner: 'id',
  toMany: {
    sessions: {
      target: () => Session,
      inverse: 'userId',
      description: 'The user\u2019s sessions (logins); logging out deletes one.',
    },
  },
  access: {
    create: 'public',
    list: 'authenticated',
    read: 'authenticated',
    update: 'authenticated',
    delete: 'authenticated',
  },
  answers: {
    create: { 409: 'The email is taken' },
    update: { 409: 'The email is taken' },
    delete: { 409: 'The user has orders' },
  },
})
export class User extends ResourceEntity {
  @Attribute({
    type: 'string',
    format: 'email',
    maxLength: 254,
    description: 'The address to log in with; unique whatever its case',
  })
  email!: string;

  // Emails are unique whatever their case; the lower-case key carries the constraint.
  @Column({ name: 'email_key', type: 'varchar', length: 254, unique: true })
  emailKey!: string;

  @Attribute({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'The name to address the user by',
  })
  name!: string;

  @Attribute({
    type: 'string',
    minLength: 8,
    maxLength: 128,
    output: 'never',
    column: false,
    description: 'The password to log in with (write-only: stored as a hash, never shown)',
  })
  password?: string;

  @Attribute({
    type: 'string',
    maxLength: 128,
    writable: 'patch',
    output: 'never',
    column: false,
    description:
      'The password the user has now: required (and checked) to change one\u2019s own password or email, which ends every other session (write-only)',
  })
  currentPassword?: string;

  // The static accounts of STATIC_TOKENS have none ('!'): they log in with their token only.
  @Column({ name: 'password_hash', type: 'varchar', length: 200 })
  passwordHash!: string;

  @Attribute({
    type: 'date',
    optional: true,
    nullable: true,
    description: 'Date of birth, if the user gave it',
  })
  birthDate!: string | null;

  @Attribute({
    type: 'enum',
    values: ROLES,
    writable: false,
    column: { default: 'customer' },
    description: 'customer for signed-up users; admin for the configured static accounts',
  })
  role!: Role;

  // The cart is created with the user and has the same id; no foreign key, since each
  // row needs the other to exist first.
  @ToOne(() => Cart, {
    writable: false,
    foreignKey: false,
    description: 'The user\u2019s cart, created with the user (the same id)',
  })
  cartId!: string;
}
