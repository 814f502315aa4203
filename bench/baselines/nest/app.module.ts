import { Module, ValidationPipe } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SETTINGS } from '../shop.wire';
import { AdminTokenGuard, SessionJwtStrategy } from './shop.auth';
import { CartItemsController, CartsController, ProductsController } from './shop.controller';
import { ENTITIES } from './shop.entities';
import { ShopService } from './shop.service';

/** The hand-written shop: entities, a service with repositories, controllers, one pipe. */
@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: SETTINGS.databaseUrl,
      entities: ENTITIES,
      extra: { max: SETTINGS.pool.max, options: SETTINGS.sessionOptions },
    }),
    TypeOrmModule.forFeature(ENTITIES),
    PassportModule,
  ],
  controllers: [ProductsController, CartsController, CartItemsController],
  providers: [
    ShopService,
    SessionJwtStrategy,
    AdminTokenGuard,
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
      }),
    },
  ],
})
export class AppModule {}
