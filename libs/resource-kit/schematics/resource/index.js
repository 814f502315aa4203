const {
  apply,
  applyTemplates,
  chain,
  mergeWith,
  move,
  renameTemplateFiles,
  SchematicsException,
  url,
} = require('@angular-devkit/schematics');
const prettier = require('prettier');
const { posix } = require('node:path');
const { joinDomain, registerModule } = require('./domain-module');
const { markIndexes, parseAttributes } = require('./attributes');
const { resourceNames } = require('./names');
const { parseToOne } = require('./to-one');

/**
 * `nest g -c @app/resource-kit-schematics resource reviews`: the declaration, controller and
 * module of a resource in the app's modules folder, its registration in its domain (the
 * domain's module and declaration), and its end-to-end spec, formatted as the project formats
 * code.
 */
function resource(options) {
  return (tree) => {
    const names = resourceNames(options.name);
    const domain = domainOf(options, tree);
    const modulesPath = posix.join(options.sourceRoot, 'modules');
    const folder = posix.join(modulesPath, names.folder);
    if (tree.getDir(folder).subfiles.length > 0) {
      throw new SchematicsException(`${folder} exists already`);
    }
    const attributes = parseAttributes(options.attributes ?? '');
    markIndexes(attributes, options.indexed ?? '', options.searchable ?? '');
    const toOne = parseToOne(options.toOne ?? '', tree, modulesPath, folder);
    const model = {
      ...names,
      attributes,
      toOne,
      owner: ownerOf(options, tree, modulesPath, folder),
      parent: parentOf(options, toOne, tree),
      tenant: tenantOf(options),
      // Prettier turns the double quotes into the project's single quotes.
      literal: (value) => JSON.stringify(value),
    };
    const written = [
      domain.module,
      domain.declaration,
      `${folder}/${names.entityFile}.entity.ts`,
      `${folder}/${names.folder}.controller.ts`,
      `${folder}/${names.folder}.module.ts`,
      `${options.testRoot}/${names.folder}.e2e-spec.ts`,
    ];
    return chain([
      mergeWith(templates('module', folder, model)),
      mergeWith(templates('test', options.testRoot, model)),
      (next) =>
        registerModule(
          next,
          domain.module,
          names.moduleClass,
          `../modules/${names.folder}/${names.folder}.module`,
        ),
      (next) => joinDomain(next, domain.declaration, `modules/${names.folder}`),
      formatted(written),
    ]);
  };
}

// `--domain ordering`: the domain whose team owns the resource, declared in
// `domains/<domain>.domain.ts` with its module in `domains/<domain>.module.ts`.
function domainOf(options, tree) {
  const folder = posix.join(options.sourceRoot, 'domains');
  const declaration = posix.join(folder, `${options.domain}.domain.ts`);
  if (!options.domain || !tree.exists(declaration)) {
    const known = tree
      .getDir(folder)
      .subfiles.filter((file) => file.endsWith('.domain.ts'))
      .map((file) => file.slice(0, -'.domain.ts'.length));
    throw new SchematicsException(
      `--domain ${options.domain ?? ''}: name one of the domains (${known.join(', ')}), declared in ${folder}`,
    );
  }
  return { declaration, module: posix.join(folder, `${options.domain}.module.ts`) };
}

// `--access owned` or `authored`: a read-only `user_id` to the users resource, set from the
// caller; `authored` rows are public to read as well.
function ownerOf(options, tree, modulesPath, folder) {
  const access = options.access ?? 'public-read';
  const onOwnerDelete = options.onOwnerDelete ?? 'refuse';
  if (access !== 'owned' && access !== 'authored') {
    if (options.onOwnerDelete) {
      throw new SchematicsException('--on-owner-delete applies to --access owned or authored only');
    }
    return undefined;
  }
  if (/(^|,)\s*users?\s*(,|$)/.test(options.toOne ?? '')) {
    throw new SchematicsException(
      `--access ${access} declares user_id itself: drop user from --to-one`,
    );
  }
  const [user] = parseToOne('user', tree, modulesPath, folder);
  return {
    ...user,
    onDelete: onOwnerDelete === 'cascade' ? 'CASCADE' : 'RESTRICT',
    onOwnerDelete,
    authored: access === 'authored',
  };
}

// `--owned-through cart`: owned by whoever owns the parent named among the to-one relationships.
function parentOf(options, toOne, tree) {
  if (!options.ownedThrough) return undefined;
  if (options.access === 'owned' || options.access === 'authored') {
    throw new SchematicsException(
      `--owned-through and --access ${options.access} exclude each other`,
    );
  }
  const name = options.ownedThrough.trim().replace(/-/g, '_');
  const relation = toOne.find((candidate) => candidate.wireName === `${name}_id`);
  if (!relation) {
    throw new SchematicsException(`--owned-through ${name}: name it in --to-one as well`);
  }
  const owner = ownerPropertyOf(tree.readText(relation.declarationPath), relation.entityClass);
  if (!owner) {
    throw new SchematicsException(
      `--owned-through ${name}: ${relation.targetType} declares no owner, so its rows belong to no one`,
    );
  }
  return { ...relation, ownerPath: `${relation.property}.${owner}` };
}

// `--tenant`: the shop's sessions carry no tenant (SPEC 1.15: it runs with one), so a
// customer could neither read nor create a tenant-scoped row they own: refused, not generated
// into a resource no customer can use.
function tenantOf(options) {
  if (!options.tenant) return false;
  if (options.access === 'owned' || options.access === 'authored' || options.ownedThrough) {
    throw new SchematicsException(
      "--tenant goes with public-read access here: the shop's sessions carry no tenant, so its customers could neither read nor create rows they own in a tenant",
    );
  }
  return true;
}

// The `owner` of a class's own @Resource, if it declares one (a top-level option, formatted:
// not the `owner` inside `history`).
function ownerPropertyOf(source, entityClass) {
  const declaration = new RegExp(
    `@Resource\\(\\{(?:(?!@Resource\\()[^])*?\\n  owner: '([\\w.]+)'(?:(?!@Resource\\()[^])*?export class ${entityClass} `,
  );
  return declaration.exec(source)?.[1];
}

function templates(folder, destination, model) {
  return apply(url(`./files/${folder}`), [
    applyTemplates(model),
    renameTemplateFiles(),
    move(destination),
  ]);
}

// Prettier with the project's own configuration, so the result passes `npm run lint` as is.
function formatted(paths) {
  return async (tree) => {
    for (const path of paths) {
      const config = await prettier.resolveConfig(path);
      const text = await prettier.format(tree.readText(path), { ...config, filepath: path });
      tree.overwrite(path, text);
    }
  };
}

module.exports = { resource };
