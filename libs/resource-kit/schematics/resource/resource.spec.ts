import { HostTree } from '@angular-devkit/schematics';
import { SchematicTestRunner, UnitTestTree } from '@angular-devkit/schematics/testing';
import { join } from 'node:path';

const runner = new SchematicTestRunner('resource-kit', join(__dirname, '..', 'collection.json'));

const CATALOG_MODULE = `import { Module } from '@nestjs/common';
import { CartsModule } from '../modules/carts/carts.module';
import { ProductsModule } from '../modules/products/products.module';
import { LedgerModule } from '../ledger/ledger.module';

@Module({ imports: [CartsModule, ProductsModule, LedgerModule] })
export class CatalogDomain {}
`;
const CATALOG_DECLARATION = `export const domain: Domain = {
  name: 'catalog',
  folders: ['modules/products', 'modules/carts'],
  dependsOn: [],
};
`;
const PRODUCT = `@Resource({ type: 'products', access: {} })
export class Product extends ResourceEntity {}
`;
const USER = `@Resource({ type: 'users', access: {} })
export class User extends ResourceEntity {}
`;
const CART = `@Resource({
  type: 'carts',
  history: { target: () => CartRevision, owner: 'cartId' },
  owner: 'userId',
  access: {},
})
export class Cart extends ResourceEntity {}
`;

function shop(): UnitTestTree {
  const tree = new UnitTestTree(new HostTree());
  tree.create('apps/api/src/domains/catalog.module.ts', CATALOG_MODULE);
  tree.create('apps/api/src/domains/catalog.domain.ts', CATALOG_DECLARATION);
  tree.create('apps/api/src/modules/products/product.entity.ts', PRODUCT);
  tree.create('apps/api/src/modules/users/user.entity.ts', USER);
  tree.create('apps/api/src/modules/carts/cart.entity.ts', CART);
  return tree;
}

const generate = (options: Record<string, string | boolean>, tree = shop()) =>
  runner.runSchematic('resource', { name: 'reviews', domain: 'catalog', ...options }, tree);

describe('the resource schematic', () => {
  it('declares a resource owned through its parent, with a spec of another customer\u2019s view', async () => {
    const tree = await generate({ toOne: 'cart,product', ownedThrough: 'cart' });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("  owner: 'cartId.userId',\n  access: {\n    list: 'authenticated',");
    expect(entity).not.toContain('userId!:');
    const spec = tree.readText('test/reviews.e2e-spec.ts');
    expect(spec).toContain("(await createSample(service, 'carts', author.token)).id");
    expect(spec).toContain("(await createSample(service, 'products')).id");
    expect(spec).toContain("error: ['data.cart_id refers to no carts resource you may write']");
  });

  it('refuses --owned-through a resource without an owner, or not among --to-one', async () => {
    await expect(generate({ toOne: 'product', ownedThrough: 'product' })).rejects.toThrow(
      '--owned-through product: products declares no owner, so its rows belong to no one',
    );
    await expect(generate({ toOne: 'product', ownedThrough: 'cart' })).rejects.toThrow(
      '--owned-through cart: name it in --to-one as well',
    );
  });

  it('scopes a resource to the caller\u2019s tenant, with a spec of another tenant\u2019s view', async () => {
    const tree = await generate({ attributes: 'title:string:200', tenant: true });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("  tenant: true,\n  access: {\n    list: 'authenticated',");
    expect(entity).toContain("create: 'admin'");
    const spec = tree.readText('test/reviews.e2e-spec.ts');
    expect(spec).toContain('service = await startTestApp({ STATIC_TOKENS: TENANT_TOKENS });');
    expect(spec).toContain("tenant_id: 'acme',");
    expect(spec).toContain('const other = shop.as(OTHER_TENANT_ADMIN_TOKEN);');
    const plain = await generate({ attributes: 'title:string:200' });
    expect(plain.readText('apps/api/src/modules/reviews/review.entity.ts')).not.toContain('tenant');
  });

  it('refuses --tenant with owned rows: the shop\u2019s sessions carry no tenant', async () => {
    const refusal =
      "--tenant goes with public-read access here: the shop's sessions carry no tenant";
    await expect(generate({ access: 'owned', tenant: true })).rejects.toThrow(refusal);
    await expect(generate({ toOne: 'cart', ownedThrough: 'cart', tenant: true })).rejects.toThrow(
      refusal,
    );
  });

  it('declares the attributes with their limits and the to-one relationship', async () => {
    const tree = await generate({
      attributes: 'rating:integer:1..5,body:string:2000,title?:string:3..80,mood:enum:up|down',
      toOne: 'product',
    });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("import { Product } from '../products/product.entity';");
    expect(entity).toContain("@Resource({\n  type: 'reviews',\n  description: 'A review',");
    expect(entity).toContain(
      "@ToOne(() => Product, {\n    writable: 'create',\n    onDelete: 'CASCADE',\n    description: 'The product of the review',\n  })\n  productId!: string;",
    );
    expect(entity).toContain(
      "@Attribute({ type: 'integer', min: 1, max: 5, description: 'Rating' })\n  rating!: number;",
    );
    expect(entity).toContain(
      "@Attribute({ type: 'string', maxLength: 2000, description: 'Body' })\n  body!: string;",
    );
    expect(entity).toContain(
      "  @Attribute({\n    type: 'string',\n    minLength: 3,\n    maxLength: 80,\n    optional: true,\n    nullable: true,\n    description: 'Title',\n  })\n  title!: string | null;",
    );
    expect(entity).toContain(
      "@Attribute({ type: 'enum', values: ['up', 'down'], description: 'Mood' })\n  mood!: 'up' | 'down';",
    );
    expect(tree.files).toEqual(
      expect.arrayContaining([
        '/apps/api/src/modules/reviews/reviews.controller.ts',
        '/apps/api/src/modules/reviews/reviews.module.ts',
        '/test/reviews.e2e-spec.ts',
      ]),
    );
  });

  it('writes the resource\u2019s controller, on the kit\u2019s base controller, and registers it', async () => {
    const tree = await generate({});
    const folder = 'apps/api/src/modules/reviews';
    expect(tree.readText(`${folder}/reviews.controller.ts`)).toContain(
      'export class ReviewsController extends ResourceController(Review) {}',
    );
    expect(tree.readText(`${folder}/reviews.module.ts`)).toContain(
      'ResourceModule.forFeature(Review, { controller: ReviewsController })',
    );
  });

  it('registers the module in its domain: the domain\u2019s module and its declared folders', async () => {
    const tree = await generate({});
    const domainModule = tree.readText('apps/api/src/domains/catalog.module.ts');
    expect(domainModule).toContain(
      "import { ProductsModule } from '../modules/products/products.module';\nimport { ReviewsModule } from '../modules/reviews/reviews.module';\n",
    );
    expect(domainModule).toContain(
      'imports: [CartsModule, ProductsModule, ReviewsModule, LedgerModule]',
    );
    expect(tree.readText('apps/api/src/domains/catalog.domain.ts')).toContain(
      "folders: ['modules/products', 'modules/carts', 'modules/reviews'],",
    );
  });

  it('refuses a domain that is not declared, naming those that are', async () => {
    await expect(generate({ domain: 'billing' })).rejects.toThrow(
      '--domain billing: name one of the domains (catalog), declared in apps/api/src/domains',
    );
  });

  it('makes an owned resource: user_id set from the caller, access own, a refusing key by default', async () => {
    const tree = await generate({ attributes: 'rating:integer', access: 'owned' });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("import { User } from '../users/user.entity';");
    expect(entity).toContain("owner: 'userId',");
    expect(entity).toContain("indexes: [['userId', 'createdAt', 'id']],");
    expect(entity).not.toContain("'public'");
    expect(entity).toContain(
      "@ToOne(() => User, {\n    writable: false,\n    onDelete: 'RESTRICT',",
    );
    const spec = tree.readText('test/reviews.e2e-spec.ts');
    expect(spec).toContain("error: ['users with reviews cannot be deleted']");
    const cascading = await generate({ access: 'owned', onOwnerDelete: 'cascade' });
    expect(cascading.readText('apps/api/src/modules/reviews/review.entity.ts')).toContain(
      "onDelete: 'CASCADE',",
    );
    expect(cascading.readText('test/reviews.e2e-spec.ts')).toContain('goes with its owner');
  });

  it('makes an authored resource: public to read, changed by its author only', async () => {
    const tree = await generate({ attributes: 'rating:integer', access: 'authored' });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("owner: 'userId',");
    expect(entity).toContain(
      "access: {\n    list: 'public',\n    read: 'public',\n    create: 'authenticated',\n    update: 'authenticated',",
    );
    expect(entity).toContain('(its author)');
    const spec = tree.readText('test/reviews.e2e-spec.ts');
    expect(spec).toContain('is public to read and changed by its author only');
    expect(spec).toContain("error: ['users with reviews cannot be deleted']");
  });

  it('declares indexed and searchable attributes', async () => {
    const tree = await generate({
      attributes: 'rating:integer,body:string:2000',
      indexed: 'rating',
      searchable: 'body',
    });
    const entity = tree.readText('apps/api/src/modules/reviews/review.entity.ts');
    expect(entity).toContain("type: 'integer', indexed: true, description: 'Rating'");
    expect(entity).toContain("maxLength: 2000, searchable: true, description: 'Body'");
  });

  it('names classes and files in the singular of the type', async () => {
    const tree = await generate({ name: 'gift-cards' });
    expect(tree.readText('apps/api/src/modules/gift-cards/gift-card.entity.ts')).toContain(
      "type: 'gift_cards'",
    );
    expect(tree.readText('apps/api/src/modules/gift-cards/gift-cards.module.ts')).toContain(
      'export class GiftCardsModule {}',
    );
  });

  it.each([
    [{ attributes: 'rating:integer:5..1' }, 'attribute rating: "5..1" is not a range like 1..5'],
    [{ attributes: 'rating:float' }, 'attribute rating: unknown type float'],
    [{ attributes: 'rating' }, 'attribute "rating": expected name[?]:type[:constraint]'],
    [{ attributes: 'ok:boolean:1' }, 'attribute ok: a boolean takes no constraint'],
    [{ attributes: 'created_at:time' }, 'attribute created_at: every resource has it already'],
    [{ attributes: 'a:date,a:date' }, 'attribute a is given twice'],
    [{ toOne: 'gadget' }, '--to-one gadget: no resource class Gadget'],
    [{ attributes: 'a:integer', searchable: 'a' }, '--searchable a: only string attributes'],
    [{ attributes: 'a:integer', indexed: 'b' }, '--indexed b: not among --attributes'],
    [{ onOwnerDelete: 'cascade' }, '--on-owner-delete applies to --access owned or authored only'],
    [{ access: 'authored', toOne: 'user' }, '--access authored declares user_id itself'],
    [{ access: 'owned', toOne: 'user' }, '--access owned declares user_id itself'],
  ])('refuses %j with a clear message', async (options, message) => {
    await expect(generate(options)).rejects.toThrow(message);
  });

  it('refuses a resource whose folder exists', async () => {
    const tree = await generate({});
    await expect(generate({}, tree)).rejects.toThrow('apps/api/src/modules/reviews exists already');
  });
});
