// `npm run docs:modules` writes docs/modules.md from the code: the domains' declarations
// (*.domain.ts beside this file), the resources their folders declare, and the reactions
// (@OnWrite) and listeners (@OnCommitted) their providers declare. A unit spec fails when the file is stale.
import 'reflect-metadata';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  committedListenersOf,
  readResourceDefinition,
  ResourceEntity,
  writeReactionsOf,
  type ResourceDefinition,
} from '@app/resource-kit';
import type { Domain } from './domain';

/** apps/api/src, or its build. */
const SOURCE = join(__dirname, '..');
export const MODULES_DOCUMENT = join(repositoryRoot(__dirname), 'docs', 'modules.md');

/** How a domain hears another's writes: in their transaction, or after their commit. */
type Hearing = 'reacts to' | 'listens to';

interface Reaction {
  readonly hearing: Hearing;
  readonly provider: string;
  readonly method: string;
  readonly target: string;
  readonly when: readonly string[];
}

interface DomainContents {
  readonly domain: Domain;
  readonly resources: ResourceDefinition[];
  readonly reactions: Reaction[];
}

type Exported = abstract new (...args: never[]) => unknown;

/** The document as the project's Prettier configuration formats it, as it is committed. */
export async function modulesDocument(): Promise<string> {
  const options = await resolveConfig(MODULES_DOCUMENT);
  return format(unformatted(), { ...options, filepath: MODULES_DOCUMENT });
}

function unformatted(): string {
  const domains = declaredDomains().map(contentsOf);
  const owner = new Map(
    domains.flatMap(({ domain, resources }) => resources.map((r) => [r.type, domain.name])),
  );
  return [
    '# Modules',
    '',
    'Generated from the code by `npm run docs:modules`: the domains as `apps/api/src/domains/*.domain.ts`',
    'declare them, the resources their folders declare, and the reactions (`@OnWrite`) and',
    'listeners (`@OnCommitted`) their providers declare. `npm test` fails when this file is not',
    'what the code generates; `npm run lint` checks the imports against the same declarations',
    '(README, "Domains").',
    '',
    'A solid arrow is a declared dependency. A dotted one hears the writes of the other',
    "domain's resources: `reacts to` inside the write's transaction, `listens to` after its",
    'commit, through the event publication registry (at least once, each completion recorded).',
    '',
    '```mermaid',
    'flowchart LR',
    ...domains.flatMap(({ domain }) => domain.dependsOn.map((on) => `  ${domain.name} --> ${on}`)),
    ...domains.flatMap(({ domain, reactions }) =>
      [...new Set(reactions.map((r) => `${r.hearing}:${owner.get(r.target)}`))]
        .map((edge) => edge.split(':'))
        .filter(([, on]) => on !== 'undefined' && on !== domain.name)
        .map(([hearing, on]) => `  ${domain.name} -. ${hearing} .-> ${on}`),
    ),
    '```',
    ...domains.flatMap((contents) => section(contents)),
  ].join('\n');
}

function section({ domain, resources, reactions }: DomainContents): string[] {
  const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(', ');
  return [
    '',
    `## ${domain.name}`,
    '',
    domain.description,
    '',
    `- Folders: ${code(domain.folders.map((folder) => `apps/api/src/${folder}`))}`,
    `- Depends on: ${domain.dependsOn.join(', ') || 'no other domain'}`,
    `- Public API: ${code(domain.publicApi) || 'none'}`,
    `- Resources: ${code(resources.map((r) => r.type)) || 'none'}`,
    `- Publishes (an event per write, SPEC 1.14): ${code(resources.flatMap(eventsOf)) || 'none'}`,
    `- Reacts to, in the write's transaction: ${heard(reactions, 'reacts to')}`,
    `- Listens to, after commit: ${heard(reactions, 'listens to')}`,
  ];
}

const EVENT_OF = { create: 'created', update: 'updated', delete: 'deleted' } as const;

function eventsOf(definition: ResourceDefinition): string[] {
  return (['create', 'update', 'delete'] as const)
    .filter((operation) => definition.operations.has(operation))
    .map((operation) => `${definition.type}.${EVENT_OF[operation]}`);
}

function heard(reactions: readonly Reaction[], hearing: Hearing): string {
  const described = reactions
    .filter((reaction) => reaction.hearing === hearing)
    .map(
      ({ provider, method, target, when }) =>
        `${target} ${when.join(', ')} (\`${provider}.${method}\`)`,
    );
  return described.join('; ') || 'nothing';
}

function declaredDomains(): Domain[] {
  return (
    readdirSync(__dirname)
      .filter((file) => /\.domain\.[jt]s$/.test(file))
      .sort()
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- files found at run time
      .map((file) => (require(join(__dirname, file)) as { domain: Domain }).domain)
  );
}

// What the domain's files export: its resources, and the reactions and listeners of its providers.
function contentsOf(domain: Domain): DomainContents {
  const exported = domain.folders
    .flatMap((folder) => codeFiles(join(SOURCE, folder)))
    .flatMap((file) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
      Object.values(require(file) as Record<string, unknown>).filter(
        // Classes: a function with a prototype (not an arrow function).
        (value): value is Exported => typeof value === 'function' && 'prototype' in value,
      ),
    );
  const resources = exported
    .filter((value) => value.prototype instanceof ResourceEntity)
    .map((entity) => readResourceDefinition(entity as Parameters<typeof readResourceDefinition>[0]))
    .sort((a, b) => a.type.localeCompare(b.type));
  const reactions = exported.flatMap((provider): Reaction[] => [
    ...writeReactionsOf(provider).map(({ method, entity, phases }) => ({
      hearing: 'reacts to' as const,
      provider: provider.name,
      method,
      target: readResourceDefinition(entity).type,
      when: phases,
    })),
    ...committedListenersOf(provider).map(({ method, entity, actions }) => ({
      hearing: 'listens to' as const,
      provider: provider.name,
      method,
      target: readResourceDefinition(entity).type,
      when: actions,
    })),
  ]);
  return { domain, resources, reactions };
}

function codeFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return codeFiles(path);
      return /\.[jt]s$/.test(name) && !/\.(spec|d)\.[jt]s$/.test(name) ? [path] : [];
    });
}

// The nearest folder above with a package.json: the same from the sources and from dist/.
function repositoryRoot(folder: string): string {
  return existsSync(join(folder, 'package.json')) ? folder : repositoryRoot(dirname(folder));
}

if (require.main === module) {
  void modulesDocument().then((document) => {
    writeFileSync(MODULES_DOCUMENT, document);
    process.stdout.write(`Wrote ${MODULES_DOCUMENT}\n`);
  });
}
