import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CartItemRow, CartRow, ProductRow } from '../shop.wire';

// The service's tables, mapped by hand; properties keep the column names.

@Entity('products')
export class Product implements ProductRow {
  @PrimaryColumn() id!: string;
  @Column() created_at!: Date;
  @Column() updated_at!: Date;
  @Column() name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column() price_cents!: number;
  @Column() currency!: string;
  @Column() stock!: number;
  @Column({ type: 'integer', nullable: true }) cost_cents!: number | null;
}

@Entity('product_revisions')
export class ProductRevision {
  @PrimaryColumn() id!: string;
  @Column() created_at!: Date;
  @Column() updated_at!: Date;
  @Column() product_id!: string;
  @Column() revision!: number;
  @Column() name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column() price_cents!: number;
  @Column() currency!: string;
  @Column() stock!: number;
  @Column({ type: 'integer', nullable: true }) cost_cents!: number | null;
}

@Entity('events')
export class ShopEvent {
  @PrimaryColumn() id!: string;
  @Column() created_at!: Date;
  @Column() updated_at!: Date;
  @Column() action!: string;
  @Column() subject_type!: string;
  @Column() subject_id!: string;
  @Column() user_id!: string;
  @Column() occurred_at!: Date;
}

@Entity('users')
export class User {
  @PrimaryColumn() id!: string;
  @Column() email_key!: string;
  @Column() role!: string;
}

@Entity('sessions')
export class Session {
  @PrimaryColumn() id!: string;
  @Column() user_id!: string;
  @Column() expires_at!: Date;
  @ManyToOne(() => User)
  @JoinColumn({ name: 'user_id' })
  user?: User;
}

@Entity('carts')
export class Cart implements CartRow {
  @PrimaryColumn() id!: string;
  @Column() created_at!: Date;
  @Column() updated_at!: Date;
  @Column() user_id!: string;
  @Column() subtotal_cents!: number;
  @Column() item_count!: number;
  @Column() currency!: string;
}

@Entity('cart_items')
export class CartItem implements CartItemRow {
  @PrimaryColumn() id!: string;
  @Column() created_at!: Date;
  @Column() updated_at!: Date;
  @Column() cart_id!: string;
  @Column() product_id!: string;
  @Column() quantity!: number;
  @Column() unit_price_cents!: number;
  @Column() line_total_cents!: number;
}

export const ENTITIES = [Product, ProductRevision, ShopEvent, User, Session, Cart, CartItem];
