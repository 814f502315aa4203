const { strings } = require('@angular-devkit/core');
const { SchematicsException } = require('@angular-devkit/schematics');

// Members every resource has already; a declaration may not repeat them.
const RESERVED = new Set(['id', 'type', 'created_at', 'updated_at']);
const SPEC = /^([a-z][a-zA-Z0-9_]*)(\?)?:([a-z]+)(?::(.+))?$/;

/**
 * Parses `rating:integer:1..5,body?:string:2000` into the attributes of a declaration, each
 * with its decorator options, its TypeScript type and the values its spec sends.
 */
function parseAttributes(text) {
  const specs = text
    .split(',')
    .map((spec) => spec.trim())
    .filter(Boolean);
  const attributes = specs.map(parseAttribute);
  const names = attributes.map((attribute) => attribute.wireName);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new SchematicsException(`attribute ${repeated} is given twice`);
  return attributes;
}

function parseAttribute(spec) {
  const match = SPEC.exec(spec);
  if (!match) {
    throw new SchematicsException(
      `attribute "${spec}": expected name[?]:type[:constraint], e.g. rating:integer:1..5`,
    );
  }
  const [, name, optional, type, constraint] = match;
  const wireName = strings.underscore(name);
  if (RESERVED.has(wireName)) {
    throw new SchematicsException(`attribute ${wireName}: every resource has it already`);
  }
  const kind = KINDS[type];
  if (!kind) {
    throw new SchematicsException(
      `attribute ${wireName}: unknown type ${type} (${Object.keys(KINDS).join(', ')})`,
    );
  }
  if (constraint !== undefined && !kind.constraint) {
    throw new SchematicsException(`attribute ${wireName}: a ${type} takes no constraint`);
  }
  const limits = kind.constraint ? kind.constraint(constraint, wireName) : {};
  return {
    property: strings.camelize(wireName),
    wireName,
    type,
    optional: Boolean(optional),
    options: {
      type,
      ...limits,
      ...(optional && { optional: true, nullable: true }),
      // A first wording for the OpenAPI document, which describes every member: refine it.
      description: strings.capitalize(wireName.replace(/_/g, ' ')),
    },
    tsType: kind.tsType(limits) + (optional ? ' | null' : ''),
    samples: kind.samples(limits),
  };
}

const KINDS = {
  string: {
    constraint: (text, name) => {
      if (text === undefined) return {};
      const [min, max] = text.includes('..') ? range(text, name) : [undefined, count(text, name)];
      return { ...(min !== undefined && { minLength: min }), maxLength: max };
    },
    tsType: () => 'string',
    samples: ({ minLength = 1, maxLength = 255 }) => ({
      created: withLength('Sample text', minLength, maxLength),
      changed: withLength('Changed text', minLength, maxLength),
      invalid: 42,
    }),
  },
  integer: numeric(Number.isSafeInteger, 1),
  number: numeric(Number.isFinite, 0.5),
  boolean: { tsType: () => 'boolean', samples: () => pair(false, true, 'yes') },
  date: { tsType: () => 'string', samples: () => pair('2026-01-31', '2026-02-01', '2026-02-30') },
  time: {
    tsType: () => 'Date',
    samples: () => pair('2026-01-31T12:00:00Z', '2026-02-01T08:30:00Z', 'yesterday'),
  },
  enum: {
    constraint: (text, name) => {
      const values = (text ?? '').split('|').filter(Boolean);
      if (values.length === 0) {
        throw new SchematicsException(`attribute ${name}: an enum lists its values, e.g. a|b`);
      }
      return { values };
    },
    tsType: ({ values }) => values.map((value) => `'${value}'`).join(' | '),
    samples: ({ values }) => pair(values[0], values[1] ?? values[0], `not ${values[0]}`),
  },
};

function numeric(isValid, step) {
  return {
    constraint: (text, name) => {
      if (text === undefined) return {};
      const [min, max] = range(text, name, isValid);
      return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
    },
    tsType: () => 'number',
    samples: ({ min = -Infinity, max = Infinity }) => {
      const created = Math.min(Math.max(step, min), max);
      const changed = created + step <= max ? created + step : Math.max(created - step, min);
      return pair(created, changed, 'not a number');
    },
  };
}

// `1..5`, `0..` or `..10`.
function range(text, name, isValid = Number.isSafeInteger) {
  const match = /^(-?[\d.]*)\.\.(-?[\d.]*)$/.exec(text);
  const bounds = match ? [match[1], match[2]].map((b) => (b === '' ? undefined : Number(b))) : [];
  const valid = bounds.length === 2 && bounds.every((b) => b === undefined || isValid(b));
  if (!valid || (bounds[0] ?? -Infinity) > (bounds[1] ?? Infinity)) {
    throw new SchematicsException(`attribute ${name}: "${text}" is not a range like 1..5`);
  }
  return bounds;
}

function count(text, name) {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SchematicsException(`attribute ${name}: "${text}" is not a maximum length`);
  }
  return value;
}

function withLength(text, minLength, maxLength) {
  return text.padEnd(minLength, '.').slice(0, maxLength);
}

function pair(created, changed, invalid) {
  return { created, changed, invalid };
}

/**
 * `--indexed rating` and `--searchable body`: an index on (column, id) for filters and order,
 * a trigram index for `contains` (strings only), declared on the attribute.
 */
function markIndexes(attributes, indexed, searchable) {
  const mark = (text, option, accepts) => {
    for (const name of text.split(',').map((name) => strings.underscore(name.trim()))) {
      if (!name) continue;
      const attribute = attributes.find((candidate) => candidate.wireName === name);
      if (!attribute) throw new SchematicsException(`--${option} ${name}: not among --attributes`);
      if (!accepts(attribute)) {
        throw new SchematicsException(`--${option} ${name}: only string attributes are searched`);
      }
      // The description stays the last option, where a reader expects it.
      const { description, ...rest } = attribute.options;
      attribute.options = { ...rest, [option]: true, description };
    }
  };
  mark(indexed, 'indexed', () => true);
  mark(searchable, 'searchable', (attribute) => attribute.type === 'string');
}

module.exports = { markIndexes, parseAttributes };
