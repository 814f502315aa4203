import { Module } from '@nestjs/common';
import { domain } from './catalog.domain';
import { ProductsModule } from '../modules/products/products.module';

/** The catalog domain (catalog.domain.ts): its resource modules, booted together. */
@Module({ imports: [ProductsModule] })
export class CatalogDomain {
  static readonly declaration = domain;
}
