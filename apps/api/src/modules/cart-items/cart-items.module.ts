import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { CartItem } from './cart-item.entity';
import { CartItemsService } from './cart-items.service';

@Module({ imports: [ResourceModule.forFeature(CartItem, { service: CartItemsService })] })
export class CartItemsModule {}
