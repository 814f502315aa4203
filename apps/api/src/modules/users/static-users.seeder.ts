import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  isUniqueViolation,
  newRow,
  StaticTokenRegistry,
  TransactionRunner,
} from '@app/resource-kit';
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
    private readonly tokens: StaticTokenRegistry,
    private readonly transactions: TransactionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const granted of this.config.staticTokens) {
      // Instances starting together may both create it: the one that loses takes the other's.
      const user = await this.seed(granted).catch((error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        return this.seed(granted);
      });
      const { tenant } = granted;
      this.tokens.register(granted.token, {
        id: user.id,
        role: user.role,
        ...(tenant !== undefined && { tenant }),
      });
    }
  }

  // The static token's user, created with its cart or brought up to date, in one transaction.
  private seed(granted: AppConfig['staticTokens'][number]): Promise<User> {
    // The kit's runner: on SQLite it takes its turn with the other transactions of the start.
    return this.transactions.run(async (manager) => {
      const users = manager.getRepository(User);
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
      if (!existing) await manager.getRepository(Cart).insert(newCart(user));
      return user;
    });
  }
}

function signedUp(email: string): Error {
  return new Error(
    `STATIC_TOKENS names ${email}, the email of an account that signed up: it is never made a static account. Name another email for the token, or delete that account first.`,
  );
}
