// The library entry: `import { startServer } from 'kapi'`.
// Counterpart of cmd/kube-apiserver/app (as a library).
export { startServer, runServer, type RunningServer, type StartServerOptions } from './cli/serve.ts';
