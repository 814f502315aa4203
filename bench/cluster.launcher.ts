// Runs a server's entry file in two node:cluster workers sharing one port, so the servers
// themselves need no change. Usage: node cluster.launcher.js <entry.js>
import cluster from 'node:cluster';

const WORKERS = 2;
const entry = process.argv[2];

cluster.setupPrimary({ exec: entry });
for (let i = 0; i < WORKERS; i += 1) cluster.fork();
cluster.on('exit', (worker, code, signal) => {
  if (!stopping) console.error(`worker ${worker.process.pid} exited (${signal ?? code})`);
});

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
  cluster.disconnect(() => process.exit(0));
});
