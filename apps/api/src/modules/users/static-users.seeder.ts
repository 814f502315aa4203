import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { newRow, StaticTokenRegistry } from '@app/resource-kit';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { NO_PASSWORD } from '../../accounts/password.hasher';
import { User } from './user.entity';
import { Cart } from '../carts/cart.entity';
import { newCart } from '../carts/new-cart';

/**
 * Makes the users named by STATIC_TOKENS exist (created or brought up to date) and grants
 * their tokens. No endpoint creates these users; they cannot log in with a password. An
 * account that signed up is never turned into one (SPEC 1.12): the start is refused instead.
 */
@Injectable()
export class StaticUsersSeeder implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly tokens: StaticTokenRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const users = this.dataSource.getRepository(User);
    for (const granted of this.config.staticTokens) {
      const emailKey = granted.email.toLowerCase();
      const existing = await users.findOneBy({ emailKey });
      if (existing && existing.passwordHash !== NO_PASSWORD) throw signedUp(granted.email);
      const row = newRow();
      const user =
        existing ??
        users.create({ ...row, cartId: row.id, passwordHash: NO_PASSWORD, birthDate: null });
      Object.assign(user, {
        email: granted.email,
        emailKey,
        name: granted.name,
        role: granted.role,
        updatedAt: row.updatedAt,
      });
      await users.save(user);
      if (!existing) await this.dataSource.getRepository(Cart).insert(newCart(user));
      const { tenant } = granted;
      this.tokens.register(granted.token, {
        id: user.id,
        role: user.role,
        ...(tenant !== undefined && { tenant }),
      });
    }
  }
}

function signedUp(email: string): Error {
  return new Error(
    `STATIC_TOKENS names ${email}, the email of an account that signed up: it is never made a static account. Name another email for the token, or delete that account first.`,
  );
}
