import { Module } from '@nestjs/common';
import { ProductsModule } from '../modules/products/products.module';

/** The catalog domain (catalog.domain.ts): its resource modules, booted together. */
@Module({ imports: [ProductsModule] })
export class CatalogDomain {}
