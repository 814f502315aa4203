import { Injectable } from '@nestjs/common';
import {
  conflict,
  ResourceInput,
  ResourceService,
  WriteAction,
  WriteContext,
} from '@app/resource-kit';
import { newCart } from '../carts/new-cart';
import { Cart } from '../carts/cart.entity';
import { Order } from '../orders/order.entity';
import { hashPassword } from './password';
import { User } from './user.entity';

/** Sign-up and profile changes: unique emails (any case), hashed passwords. */
@Injectable()
export class UsersService extends ResourceService<User> {
  protected override async beforeCreate(user: User, write: WriteContext): Promise<void> {
    user.role = 'customer';
    user.cartId = user.id;
    await this.setEmail(user, user.email, write);
    user.passwordHash = await hashPassword(user.password!);
  }

  protected override async beforeUpdate(
    user: User,
    changes: ResourceInput,
    write: WriteContext,
  ): Promise<void> {
    if (changes.has('email')) await this.setEmail(user, user.email, write);
    if (changes.has('password')) user.passwordHash = await hashPassword(user.password!);
  }

  protected override async afterWrite(
    user: User,
    action: WriteAction,
    { manager }: WriteContext,
  ): Promise<void> {
    if (action === 'created') await manager.insert(Cart, newCart(user));
  }

  protected override async beforeDelete(user: User, { manager }: WriteContext): Promise<void> {
    if (await manager.getRepository(Order).existsBy({ userId: user.id })) {
      throw conflict('users with orders cannot be deleted');
    }
  }

  private async setEmail(user: User, email: string, { manager }: WriteContext): Promise<void> {
    user.emailKey = email.toLowerCase();
    const taken = await manager.getRepository(User).findOneBy({ emailKey: user.emailKey });
    if (taken && taken.id !== user.id) throw conflict('data.email is already registered');
  }
}
