export {
  type ExampleServer,
  type StartExampleServerOptions,
  startExampleServer,
} from './example-server';
export { type ExampleRun, runExample } from './run-example';
