import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { AccountsModule } from '../../accounts/accounts.module';
import { StaticUsersSeeder } from './static-users.seeder';
import { User } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [ResourceModule.forFeature(User, { service: UsersService, imports: [AccountsModule] })],
  providers: [StaticUsersSeeder],
})
export class UsersModule {}
