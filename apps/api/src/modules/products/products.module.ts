import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { Product, ProductRevision } from './product.entity';
import { ProductsService } from './products.service';

@Module({
  imports: [
    ResourceModule.forFeature(Product, { service: ProductsService }),
    ResourceModule.forFeature(ProductRevision),
  ],
})
export class ProductsModule {}
