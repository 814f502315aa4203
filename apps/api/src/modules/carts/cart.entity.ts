import { Attribute, Resource, ResourceEntity, ToOne } from '@app/resource-kit';
import { CURRENCIES, type Currency } from '../products/currencies';
import { User } from '../users/user.entity';

/** Created with its user and sharing the user's id; its totals follow its items. */
@Resource({
  type: 'carts',
  description:
    'A user\u2019s cart, created with the user and sharing its id; its totals follow its items.',
  owner: 'userId',
  access: { list: 'authenticated', read: 'authenticated' },
})
export class Cart extends ResourceEntity {
  @ToOne(() => User, {
    writable: false,
    onDelete: 'CASCADE',
    description: 'The user the cart belongs to',
  })
  userId!: string;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    column: { default: 0 },
    description: 'The sum of the items\u2019 line totals, in minor units',
  })
  subtotalCents!: number;

  @Attribute({
    type: 'integer',
    writable: false,
    min: 0,
    column: { default: 0 },
    description: 'The sum of the items\u2019 quantities',
  })
  itemCount!: number;

  @Attribute({
    type: 'enum',
    values: CURRENCIES,
    writable: false,
    column: { default: 'EUR' },
    description: 'ISO 4217 currency of the totals',
  })
  currency!: Currency;
}
