const { strings } = require('@angular-devkit/core');
const { SchematicsException } = require('@angular-devkit/schematics');

/** Every name the files of a resource use, from its plural type (`gift_cards` or `gift-cards`). */
function resourceNames(name) {
  const type = strings.underscore(name);
  const singular = singularOf(type);
  return {
    type,
    folder: strings.dasherize(type),
    entityClass: strings.classify(singular),
    entityFile: strings.dasherize(singular),
    moduleClass: `${strings.classify(type)}Module`,
    controllerClass: `${strings.classify(type)}Controller`,
    singularWords: singular.replace(/_/g, ' '),
  };
}

// English plurals as resource types spell them (reviews, categories, boxes); the type is the
// one truth, the singular only names the entity class and its file.
function singularOf(type) {
  const rules = [
    [/ies$/, 'y'],
    [/(ss|x|z|ch|sh)es$/, '$1'],
    [/s$/, ''],
  ];
  const rule = rules.find(([plural]) => plural.test(type));
  if (!rule) throw new SchematicsException(`${type}: a resource's type is plural (reviews)`);
  return type.replace(rule[0], rule[1]);
}

module.exports = { resourceNames };
