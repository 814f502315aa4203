// Imported first by main.ts, before any native module: on an older Node the SQLite driver
// crashes (a segfault, exit 139) without printing a word.
import { refuseToStart } from './refuse-to-start';
import { isSupportedNode, unsupportedNodeMessage } from './node-version';

if (!isSupportedNode(process.versions.node)) {
  refuseToStart(unsupportedNodeMessage(process.versions.node, process.execPath));
}
