import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { Order } from './order.entity';
import { OrdersService } from './orders.service';

@Module({ imports: [ResourceModule.forFeature(Order, { service: OrdersService })] })
export class OrdersModule {}
