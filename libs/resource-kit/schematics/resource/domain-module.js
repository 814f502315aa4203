const { SchematicsException } = require('@angular-devkit/schematics');
const ts = require('typescript');

const FEATURE_IMPORT = /^\.\.\/modules\//;

/**
 * Registers a resource module in its domain's module (`domains/<domain>.module.ts`): its
 * import line among the other resource modules' (in order of path), and its entry after the
 * last of them in the `imports` array of the module's definition. Reads the file as
 * TypeScript, so spacing and comments do not matter; refuses a file it does not recognise
 * rather than guessing.
 */
function registerModule(tree, domainModulePath, moduleClass, importPath) {
  const text = tree.readText(domainModulePath);
  const source = ts.createSourceFile(domainModulePath, text, ts.ScriptTarget.Latest, true);
  const features = source.statements.filter(
    (statement) =>
      ts.isImportDeclaration(statement) && FEATURE_IMPORT.test(statement.moduleSpecifier.text),
  );
  if (features.some((statement) => statement.moduleSpecifier.text === importPath)) {
    throw new SchematicsException(`${domainModulePath} imports ${importPath} already`);
  }
  const entries = featureEntries(source, features, domainModulePath);
  const next = features.find((statement) => statement.moduleSpecifier.text > importPath);
  const recorder = tree.beginUpdate(domainModulePath);
  const importLine = `import { ${moduleClass} } from '${importPath}';\n`;
  if (next) recorder.insertLeft(next.getStart(), importLine);
  else recorder.insertRight(features.at(-1).getEnd(), `\n${importLine.trimEnd()}`);
  recorder.insertRight(entries.at(-1).getEnd(), `,\n${moduleClass}`);
  tree.commitUpdate(recorder);
}

// The elements of the `imports` array that name feature modules.
function featureEntries(source, features, domainModulePath) {
  const names = new Set(
    features.flatMap((statement) =>
      (statement.importClause?.namedBindings?.elements ?? []).map((e) => e.name.text),
    ),
  );
  let entries = [];
  const visit = (node) => {
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === 'imports' &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      const named = node.initializer.elements.filter(
        (element) => ts.isIdentifier(element) && names.has(element.text),
      );
      if (named.length > 0) entries = named;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (entries.length === 0) {
    throw new SchematicsException(
      `${domainModulePath}: found no imports array listing the resource modules of ../modules/`,
    );
  }
  return entries;
}

/**
 * Adds the module's folder to the domain's declaration (`domains/<domain>.domain.ts`), whose
 * `folders` the domains' check reads (SPEC 1.18).
 */
function joinDomain(tree, declarationPath, folder) {
  const text = tree.readText(declarationPath);
  const joined = text.replace(/folders: \[([^\]]*?),?(\s*)\]/, `folders: [$1, '${folder}'$2]`);
  if (joined === text) {
    throw new SchematicsException(
      `${declarationPath}: found no folders: [...] to add ${folder} to`,
    );
  }
  tree.overwrite(declarationPath, joined);
}

module.exports = { joinDomain, registerModule };
