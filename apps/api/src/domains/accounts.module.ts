import { Module } from '@nestjs/common';
import { domain } from './accounts.domain';
import { CartsModule } from '../modules/carts/carts.module';
import { SessionsModule } from '../modules/sessions/sessions.module';
import { UsersModule } from '../modules/users/users.module';

/** The accounts domain (accounts.domain.ts): its resource modules, booted together. */
@Module({ imports: [UsersModule, SessionsModule, CartsModule] })
export class AccountsDomain {
  static readonly declaration = domain;
}
