import { Module } from '@nestjs/common';
import { ResourceModule } from '@app/resource-kit';
import { Cart } from './cart.entity';

@Module({ imports: [ResourceModule.forFeature(Cart)] })
export class CartsModule {}
