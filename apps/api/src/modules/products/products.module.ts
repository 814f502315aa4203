import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { Product, ProductRevision } from './product.entity';

@Module({
  imports: [ResourceModule.forFeature(Product), ResourceModule.forFeature(ProductRevision)],
})
export class ProductsModule {}
