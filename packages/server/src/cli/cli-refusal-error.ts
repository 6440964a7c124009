/** A command declined to run; its message is printed as is, without a stack or usage. */
export class CliRefusalError extends Error {
  override name = 'CliRefusalError';
}
