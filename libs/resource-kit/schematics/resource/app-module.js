const { SchematicsException } = require('@angular-devkit/schematics');
const ts = require('typescript');

const FEATURE_IMPORT = /^\.\/modules\//;

/**
 * Registers a feature module in the app module: its import line among the other feature
 * modules' (in order of path), and its entry after the last of them in the `imports` array
 * of the module's definition. Reads the file as TypeScript, so spacing and comments do not
 * matter; refuses a file it does not recognise rather than guessing.
 */
function registerModule(tree, appModulePath, moduleClass, importPath) {
  const text = tree.readText(appModulePath);
  const source = ts.createSourceFile(appModulePath, text, ts.ScriptTarget.Latest, true);
  const features = source.statements.filter(
    (statement) =>
      ts.isImportDeclaration(statement) && FEATURE_IMPORT.test(statement.moduleSpecifier.text),
  );
  if (features.some((statement) => statement.moduleSpecifier.text === importPath)) {
    throw new SchematicsException(`${appModulePath} imports ${importPath} already`);
  }
  const entries = featureEntries(source, features, appModulePath);
  const next = features.find((statement) => statement.moduleSpecifier.text > importPath);
  const recorder = tree.beginUpdate(appModulePath);
  const importLine = `import { ${moduleClass} } from '${importPath}';\n`;
  if (next) recorder.insertLeft(next.getStart(), importLine);
  else recorder.insertRight(features.at(-1).getEnd(), `\n${importLine.trimEnd()}`);
  recorder.insertRight(entries.at(-1).getEnd(), `,\n${moduleClass}`);
  tree.commitUpdate(recorder);
}

// The elements of the `imports` array that name feature modules.
function featureEntries(source, features, appModulePath) {
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
      `${appModulePath}: found no imports array listing the feature modules of ./modules/`,
    );
  }
  return entries;
}

module.exports = { registerModule };
