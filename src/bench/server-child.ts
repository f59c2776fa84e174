// Child process: a kapi server (temporary data dir, random port) started with the kube-apiserver
// flags given as arguments: none for the embedded store, --etcd-servers <url> for etcd. Prints
// {"url","kubeconfigPath","dataDir"} on one line when ready; shuts down when stdin closes.
import { startServer } from '../index.ts';

const server = await startServer({ flags: process.argv.slice(2) });
process.stdout.write(`${JSON.stringify({ url: server.url, kubeconfigPath: server.kubeconfigPath, dataDir: server.dataDir })}\n`);

let closing = false;
const shutdown = (): void => {
  if (closing) return;
  closing = true;
  server.close().then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
};
process.stdin.on('end', shutdown);
process.stdin.on('error', shutdown);
process.stdin.resume();
process.on('SIGTERM', shutdown);
