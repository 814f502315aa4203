// Imported first by main.ts, before any native module: on an older Node the SQLite driver
// crashes (a segfault, exit 139) without printing a word.
import { isSupportedNode, unsupportedNodeMessage } from './node-version';

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(`${unsupportedNodeMessage(process.versions.node, process.execPath)}\n`);
  process.exit(1);
}
