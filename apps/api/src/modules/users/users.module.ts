import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { StaticUsersSeeder } from './static-users.seeder';
import { User } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [ResourceModule.forFeature(User, { service: UsersService })],
  providers: [StaticUsersSeeder],
})
export class UsersModule {}
