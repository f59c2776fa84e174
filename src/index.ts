// The library entry: `import { startServer } from 'kapi'`.
export { startServer, runServer, type RunningServer, type StartServerOptions } from './cli/serve.ts';
