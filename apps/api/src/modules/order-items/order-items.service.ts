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
    // TypeORM names the table with its schema: no search_path needed (a transaction pooler
    // sets none outside transactions).
    const owned = query
      .subQuery()
      .select('owned.id')
      .from(Order, 'owned')
      .where('owned.user_id = :orderOwner')
      .getQuery();
    return query.andWhere(`resource.order_id IN ${owned}`, { orderOwner: caller?.id ?? null });
  }
}
