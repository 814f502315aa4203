// `npm run contract:write` snapshots the wire contract of every resource into
// apps/api/contract.json; `npm run contract:check` fails on any breaking change against it
// (the e2e suite runs the same check).
process.env.TZ = 'UTC';

import 'reflect-metadata';
import { breakingChanges, describeContract, ResourceRegistry } from '@app/resource-kit';
import type { Contract } from '@app/resource-kit';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withDeclaredApp } from './declared-app';

const CONTRACT_FILE = join(__dirname, '..', '..', '..', '..', 'apps', 'api', 'contract.json');

async function main(command: string | undefined): Promise<number> {
  const current = await withDeclaredApp((app) =>
    describeContract(app.get(ResourceRegistry).definitions()),
  );
  if (command === 'write') {
    writeFileSync(CONTRACT_FILE, `${JSON.stringify(current, null, 2)}\n`);
    process.stdout.write(`Wrote ${CONTRACT_FILE}\n`);
    return 0;
  }
  const previous = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as Contract;
  const broken = breakingChanges(previous, current);
  for (const change of broken) process.stderr.write(`breaking: ${change}\n`);
  if (broken.length > 0) return 1;
  const count = Object.keys(current.resources).length;
  const additive = JSON.stringify(previous) !== JSON.stringify(current);
  const added = Object.keys(current.resources).filter((type) => !(type in previous.resources));
  process.stdout.write(
    `Contract check passed: ${count} resources, no breaking change against apps/api/contract.json` +
      (additive ? '; additive changes: run `npm run contract:write` to update the snapshot' : '') +
      (added.length > 0 ? `; new resources: ${added.join(', ')}` : '') +
      '.\n',
  );
  return 0;
}

void main(process.argv[2]).then((code) => process.exit(code));
