import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { PageCursors } from '../shop.wire';
import type { Caller } from './shop.auth';
import { CartItemInput, ProductInput } from './shop.dto';
import { Cart, CartItem, Product, ProductRevision, ShopEvent } from './shop.entities';

@Injectable()
export class ShopService {
  private readonly cursors = new PageCursors();

  constructor(
    @InjectRepository(Product) private readonly products: Repository<Product>,
    @InjectRepository(Cart) private readonly carts: Repository<Cart>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async product(id: string): Promise<Product> {
    const product = await this.products.findOneBy({ id });
    if (!product) throw new NotFoundException(`no products with id ${id}`);
    return product;
  }

  async productPage(limit: number, minPrice?: number, cursor?: string) {
    const filters: [string, string][] =
      minPrice === undefined ? [] : [['filter[price_cents][gte]', String(minPrice)]];
    const query = this.products
      .createQueryBuilder('product')
      .orderBy('product.created_at', 'ASC')
      .addOrderBy('product.id', 'ASC')
      .limit(limit + 1);
    if (minPrice !== undefined) query.andWhere('product.price_cents >= :minPrice', { minPrice });
    if (cursor !== undefined) {
      const after = this.cursors.decode(cursor, filters);
      if (!after) throw new BadRequestException('cursor is not a cursor this service issued');
      query.andWhere('(product.created_at, product.id) > (:createdAt, :id)', {
        createdAt: after[0],
        id: after[1],
      });
    }
    const rows = await query.getMany();
    const page = rows.slice(0, limit);
    const next = rows.length > limit ? this.cursors.encode(page[page.length - 1], filters) : null;
    return { page, cursor: next };
  }

  async createProduct(input: ProductInput, caller: Caller): Promise<Product> {
    const now = new Date();
    const product = this.products.create({
      ...input,
      id: uuidv7(),
      created_at: now,
      updated_at: now,
      description: input.description ?? null,
      currency: input.currency ?? 'EUR',
      cost_cents: input.cost_cents ?? null,
    });
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(Product, product);
      await manager.insert(ProductRevision, {
        ...product,
        id: uuidv7(),
        product_id: product.id,
        revision: 1,
      });
      await this.recordEvent(manager, 'created', 'products', product.id, caller);
    });
    return product;
  }

  async cart(id: string, caller: Caller): Promise<Cart> {
    const cart = await this.carts.findOneBy({ id, user_id: caller.id });
    if (!cart) throw new NotFoundException(`no carts with id ${id}`);
    return cart;
  }

  createCartItem(input: CartItemInput, caller: Caller): Promise<CartItem> {
    if (input.cart_id !== caller.id)
      throw new BadRequestException('data.cart_id names no cart of yours');
    return this.dataSource.transaction(async (manager) => {
      const cart = await this.lockCart(manager, input.cart_id);
      if (
        await manager.existsBy(CartItem, { cart_id: input.cart_id, product_id: input.product_id })
      )
        throw new ConflictException('this product is already in the cart');
      const product = await manager.findOneBy(Product, { id: input.product_id });
      if (!product) throw new BadRequestException('data.product_id names no product');
      if (input.quantity > product.stock) throw new ConflictException('not enough in stock');
      if (product.currency !== cart?.currency) throw new ConflictException('currency differs');
      const now = new Date();
      const item = manager.create(CartItem, {
        ...input,
        id: uuidv7(),
        created_at: now,
        updated_at: now,
        unit_price_cents: product.price_cents,
        line_total_cents: product.price_cents * input.quantity,
      });
      await manager.insert(CartItem, item);
      await this.recalculateCart(manager, input.cart_id);
      await this.recordEvent(manager, 'created', 'cart_items', item.id, caller);
      return item;
    });
  }

  deleteCartItem(id: string, caller: Caller): Promise<CartItem> {
    return this.dataSource.transaction(async (manager) => {
      const item = await manager
        .createQueryBuilder(CartItem, 'item')
        .setLock('pessimistic_write')
        .where('item.id = :id AND item.cart_id = :cartId', { id, cartId: caller.id })
        .getOne();
      if (!item) throw new NotFoundException(`no cart_items with id ${id}`);
      await this.lockCart(manager, item.cart_id);
      await manager.delete(CartItem, { id });
      await this.recalculateCart(manager, item.cart_id);
      await this.recordEvent(manager, 'deleted', 'cart_items', id, caller);
      return item;
    });
  }

  private lockCart(manager: EntityManager, id: string): Promise<Cart | null> {
    return manager
      .createQueryBuilder(Cart, 'cart')
      .setLock('pessimistic_write')
      .where('cart.id = :id', { id })
      .getOne();
  }

  private async recalculateCart(manager: EntityManager, cartId: string): Promise<void> {
    const totals = await manager
      .createQueryBuilder(CartItem, 'item')
      .select('COALESCE(SUM(item.line_total_cents), 0)', 'subtotal')
      .addSelect('COALESCE(SUM(item.quantity), 0)', 'count')
      .where('item.cart_id = :cartId', { cartId })
      .getRawOne<{ subtotal: string; count: string }>();
    await manager.update(
      Cart,
      { id: cartId },
      {
        subtotal_cents: Number(totals?.subtotal ?? 0),
        item_count: Number(totals?.count ?? 0),
        updated_at: new Date(),
      },
    );
  }

  private async recordEvent(
    manager: EntityManager,
    action: string,
    type: string,
    id: string,
    caller: Caller,
  ): Promise<void> {
    const now = new Date();
    await manager.insert(ShopEvent, {
      id: uuidv7(),
      created_at: now,
      updated_at: now,
      occurred_at: now,
      action,
      subject_type: type,
      subject_id: id,
      user_id: caller.id,
    });
  }
}
