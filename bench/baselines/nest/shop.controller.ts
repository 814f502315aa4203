import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { adminProductWire, cartItemWire, cartWire, productWire, SETTINGS } from '../shop.wire';
import { AdminTokenGuard } from './shop.auth';
import type { Caller } from './shop.auth';
import { CreateCartItemBody, CreateProductBody, ProductListQuery } from './shop.dto';
import { ShopService } from './shop.service';
import { CurrentCaller } from './current-caller.decorator';

const SESSION = AuthGuard('session-jwt');

@Controller('products')
export class ProductsController {
  constructor(private readonly shop: ShopService) {}

  @Get()
  async list(@Query() query: ProductListQuery) {
    const { page, cursor } = await this.shop.productPage(
      query.limit ?? SETTINGS.pageSize.default,
      query['filter[price_cents][gte]'],
      query.cursor,
    );
    return { data: page.map(productWire), cursor };
  }

  @Get(':id')
  async read(@Param('id') id: string) {
    return { data: productWire(await this.shop.product(id)) };
  }

  @Post()
  @UseGuards(AdminTokenGuard)
  async create(@Body() body: CreateProductBody, @CurrentCaller() caller: Caller) {
    // The create answers its administrator, who also reads the members only administrators read.
    return { data: adminProductWire(await this.shop.createProduct(body.data, caller)) };
  }
}

@Controller('carts')
@UseGuards(SESSION)
export class CartsController {
  constructor(private readonly shop: ShopService) {}

  @Get(':id')
  async read(@Param('id') id: string, @CurrentCaller() caller: Caller) {
    return { data: cartWire(await this.shop.cart(id, caller)) };
  }
}

@Controller('cart_items')
@UseGuards(SESSION)
export class CartItemsController {
  constructor(private readonly shop: ShopService) {}

  @Post()
  async create(@Body() body: CreateCartItemBody, @CurrentCaller() caller: Caller) {
    return { data: cartItemWire(await this.shop.createCartItem(body.data, caller)) };
  }

  @Delete(':id')
  @HttpCode(200)
  async remove(@Param('id') id: string, @CurrentCaller() caller: Caller) {
    return { data: cartItemWire(await this.shop.deleteCartItem(id, caller)) };
  }
}
