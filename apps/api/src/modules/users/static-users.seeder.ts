import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { StaticTokenRegistry } from '@app/resource-kit';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { NO_PASSWORD } from './password';
import { User } from './user.entity';
import { Cart } from '../carts/cart.entity';
import { newCart } from '../carts/new-cart';

/**
 * Makes the users named by STATIC_TOKENS exist (created or brought up to date) and grants
 * their tokens. No endpoint creates these users; they cannot log in with a password.
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
      const now = new Date();
      const existing = await users.findOneBy({ emailKey });
      const id = existing?.id ?? randomUUID();
      const user =
        existing ??
        users.create({
          id,
          cartId: id,
          createdAt: now,
          passwordHash: NO_PASSWORD,
          birthDate: null,
        });
      Object.assign(user, {
        email: granted.email,
        emailKey,
        name: granted.name,
        role: granted.role,
        updatedAt: now,
      });
      await users.save(user);
      if (!existing) await this.dataSource.getRepository(Cart).insert(newCart(user));
      this.tokens.register(granted.token, { id: user.id, role: user.role });
    }
  }
}
