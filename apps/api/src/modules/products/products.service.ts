import { Injectable } from '@nestjs/common';
import { conflict, ResourceService, WriteContext } from '@app/resource-kit';
import { OrderItem } from '../order-items/order-item.entity';
import { Product } from './product.entity';

@Injectable()
export class ProductsService extends ResourceService<Product> {
  // Orders keep their products; the foreign key would refuse too, with a vaguer message.
  protected override async beforeDelete(
    product: Product,
    { manager }: WriteContext,
  ): Promise<void> {
    if (await manager.getRepository(OrderItem).existsBy({ productId: product.id })) {
      throw conflict('products in an order cannot be deleted');
    }
  }
}
