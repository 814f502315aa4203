// The domains' boundaries (SPEC 1.18), checked by `npm run lint:domains` from the declarations
// in apps/api/src/domains/*.domain.ts: no rule here is written by hand. A domain imports
// only the domains it declares it depends on, and of them only their public API; the
// declared dependencies form no cycle; every resource module belongs to one domain.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const SOURCE = 'apps/api/src';
const DECLARATIONS = `${SOURCE}/domains`;

const domains = readdirSync(DECLARATIONS)
  .filter((file) => file.endsWith('.domain.ts'))
  .sort()
  .map((file) => ({
    file: `${DECLARATIONS}/${file}`,
    ...require(`./${DECLARATIONS}/${file}`).domain,
  }));
const byName = new Map(domains.map((domain) => [domain.name, domain]));

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const under = (domain) => `^${SOURCE}/(${domain.folders.map(literal).join('|')})/`;
const publicApi = (domain) =>
  `^${SOURCE}/(${domain.publicApi.map(literal).join('|') || 'no public API'})$`;

function refuse(problem) {
  throw new Error(`Domain declarations (${DECLARATIONS}): ${problem}`);
}

for (const domain of domains) {
  for (const name of domain.dependsOn) {
    if (!byName.has(name)) refuse(`${domain.file} depends on ${name}, which no file declares`);
  }
}

// A cycle of declared dependencies, as a path (`a → b → a`), if there is one.
function cycleFrom(name, path = []) {
  if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
  for (const next of byName.get(name).dependsOn) {
    const cycle = cycleFrom(next, [...path, name]);
    if (cycle) return cycle;
  }
  return undefined;
}
for (const domain of domains) {
  const cycle = cycleFrom(domain.name);
  if (cycle) {
    refuse(
      `the dependencies form a cycle, ${cycle.join(' → ')}: remove one of them, moving what it` +
        ` needs into the domain that depends on it, or turning the call into a reaction (@OnWrite)` +
        ` or an event sink declared by the domain that reacts`,
    );
  }
}

const owners = new Map();
for (const domain of domains) {
  for (const folder of domain.folders) {
    if (owners.has(folder)) refuse(`${folder} is in both ${owners.get(folder)} and ${domain.name}`);
    owners.set(folder, domain.name);
  }
}
for (const module of readdirSync(join(SOURCE, 'modules'))) {
  if (!owners.has(`modules/${module}`)) {
    refuse(
      `${SOURCE}/modules/${module} belongs to no domain: add 'modules/${module}' to the folders` +
        ` of the domain whose team owns it (${DECLARATIONS}/<domain>.domain.ts)`,
    );
  }
}

const forbidden = domains.flatMap((from) =>
  domains
    .filter((to) => to !== from)
    .map((to) =>
      from.dependsOn.includes(to.name)
        ? {
            name: `internal-import-from-${from.name}-into-${to.name}`,
            severity: 'error',
            comment:
              `${from.name} imports a file of ${to.name} that is not its public API: import` +
              ` what ${to.name} exports for other domains (${to.publicApi.join(', ')}), or` +
              ` ask its team to add the file to publicApi in ${to.file}`,
            from: { path: under(from) },
            to: { path: under(to), pathNot: publicApi(to) },
          }
        : {
            name: `undeclared-dependency-of-${from.name}-on-${to.name}`,
            severity: 'error',
            comment:
              `${from.name} does not declare that it depends on ${to.name}: add '${to.name}' to` +
              ` dependsOn in ${from.file} (the domains must form no cycle), or let ${to.name}` +
              ` do it: a reaction (@OnWrite) or an event sink that ${to.name} declares`,
            from: { path: under(from) },
            to: { path: under(to) },
          },
    ),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
