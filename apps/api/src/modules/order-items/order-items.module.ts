import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { OrderItem } from './order-item.entity';
import { OrderItemsService } from './order-items.service';

@Module({ imports: [ResourceModule.forFeature(OrderItem, { service: OrderItemsService })] })
export class OrderItemsModule {}
