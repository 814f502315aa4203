const { strings } = require('@angular-devkit/core');
const { SchematicsException } = require('@angular-devkit/schematics');
const { posix } = require('node:path');

/**
 * Finds the declarations named by `product,cart` among the app's modules: each becomes a
 * to-one relationship (`productId`, `product_id` on the wire) with what the spec needs.
 */
function parseToOne(text, tree, modulesPath, fromFolder) {
  const names = text
    .split(',')
    .map((name) => strings.underscore(name.trim()))
    .filter(Boolean);
  return names.map((name) => {
    const entityClass = strings.classify(name);
    const found = findDeclaration(tree, modulesPath, entityClass);
    if (!found) {
      throw new SchematicsException(
        `--to-one ${name}: no resource class ${entityClass} in ${modulesPath}/*/*.entity.ts`,
      );
    }
    return {
      entityClass,
      property: `${strings.camelize(name)}Id`,
      relationship: strings.camelize(name),
      wireName: `${name}_id`,
      targetType: found.type,
      declarationPath: found.path,
      importPath: posix.relative(fromFolder, found.path).replace(/\.ts$/, ''),
    };
  });
}

function findDeclaration(tree, modulesPath, entityClass) {
  let found;
  tree.getDir(modulesPath).visit((path) => {
    if (found || !path.endsWith('.entity.ts')) return;
    const source = tree.readText(path);
    // The class's own @Resource: the nearest one before it.
    const declaration = new RegExp(
      `@Resource\\(\\{\\s*type: '(\\w+)'(?:(?!@Resource\\()[^])*?export class ${entityClass} `,
    );
    const match = declaration.exec(source);
    if (match) found = { path: path.replace(/^\//, ''), type: match[1] };
  });
  return found;
}

module.exports = { parseToOne };
