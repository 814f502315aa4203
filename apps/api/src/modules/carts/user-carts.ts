import { Injectable } from '@nestjs/common';
import { OnWrite, type WriteContext } from '@app/resource-kit';
import { User } from '../users/user.entity';
import { Cart } from './cart.entity';
import { newCart } from './new-cart';

/**
 * Every user has a cart from sign-up on: made in the sign-up's transaction, since the next
 * request reads it (an event after the commit would leave a moment without one).
 */
@Injectable()
export class UserCarts {
  @OnWrite(() => User, 'created')
  async openCart(user: User, { manager }: WriteContext): Promise<void> {
    await manager.insert(Cart, newCart(user));
  }
}
