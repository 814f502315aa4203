import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { Cart } from './cart.entity';
import { UserCarts } from './user-carts';

@Module({ imports: [ResourceModule.forFeature(Cart)], providers: [UserCarts] })
export class CartsModule {}
