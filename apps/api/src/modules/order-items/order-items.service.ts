import { Injectable } from '@nestjs/common';
import { ADMIN_ROLE, RequestContext, ResourceService } from '@app/resource-kit';
import type { SelectQueryBuilder } from 'typeorm';
import { Order } from '../orders/order.entity';
import { OrderItem } from './order-item.entity';

/** Order items belong to whoever owns their order. */
@Injectable()
export class OrderItemsService extends ResourceService<OrderItem> {
  protected override scope(query: SelectQueryBuilder<OrderItem>, { caller }: RequestContext) {
    if (caller?.role === ADMIN_ROLE) return query;
    const orders = query.connection.getMetadata(Order).tableName;
    return query.andWhere(
      `resource.order_id IN (SELECT owned.id FROM "${orders}" owned WHERE owned.user_id = :orderOwner)`,
      { orderOwner: caller?.id ?? null },
    );
  }
}
