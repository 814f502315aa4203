import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { OrderItem } from './order-item.entity';

@Module({ imports: [ResourceModule.forFeature(OrderItem)] })
export class OrderItemsModule {}
