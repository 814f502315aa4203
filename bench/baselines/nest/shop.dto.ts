import { Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export class ProductInput {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsString() @MaxLength(2000) description?: string | null;
  @IsInt() @Min(0) price_cents!: number;
  @IsOptional() @Matches(/^[A-Z]{3}$/) currency?: string;
  @IsInt() @Min(0) stock!: number;
  @IsOptional() @IsInt() @Min(0) cost_cents?: number | null;
}

export class CreateProductBody {
  @ValidateNested() @Type(() => ProductInput) data!: ProductInput;
}

export class CartItemInput {
  @IsString() cart_id!: string;
  @IsString() product_id!: string;
  @IsInt() @Min(1) @Max(99) quantity!: number;
}

export class CreateCartItemBody {
  @ValidateNested() @Type(() => CartItemInput) data!: CartItemInput;
}

export class ProductListQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() cursor?: string;
  @IsOptional() @Type(() => Number) @IsInt() 'filter[price_cents][gte]'?: number;
}
