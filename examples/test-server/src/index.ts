export {
  type ExampleServer,
  type StartExampleServerOptions,
  startExampleServer,
} from './example-server';
