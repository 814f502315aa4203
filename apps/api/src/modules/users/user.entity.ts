import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { Cart } from '../carts/cart.entity';
import { Order } from '../orders/order.entity';
import { Column } from 'typeorm';
import { Session } from '../sessions/session.entity';

export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

@Resource({
  type: 'users',
  owner: 'id',
  toMany: {
    sessions: { target: () => Session, inverse: 'userId' },
    orders: { target: () => Order, inverse: 'userId' },
  },
  access: {
    create: 'public',
    list: 'authenticated',
    read: 'authenticated',
    update: 'authenticated',
    delete: 'authenticated',
  },
})
export class User extends ResourceEntity {
  @Attribute({ type: 'string', format: 'email', maxLength: 254 })
  email!: string;

  // Emails are unique whatever their case; the lower-case key carries the constraint.
  @Column({ name: 'email_key', type: 'varchar', length: 254, unique: true })
  emailKey!: string;

  @Attribute({ type: 'string', minLength: 1, maxLength: 200 })
  name!: string;

  @Attribute({ type: 'string', minLength: 8, maxLength: 128, output: 'never', column: false })
  password?: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 200 })
  passwordHash!: string;

  @Attribute({ type: 'date', optional: true, nullable: true })
  birthDate!: string | null;

  @Attribute({ type: 'enum', values: ROLES, writable: false, column: { default: 'customer' } })
  role!: Role;

  // The cart is created with the user and has the same id; no foreign key, since each
  // row needs the other to exist first.
  @ToOne(() => Cart, { writable: false, foreignKey: false })
  cartId!: string;
}
