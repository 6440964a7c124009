/** A faithful local Twilio for adapter tests and manual trials (`pnpm fake:twilio`). */
export {
  FakeTwilio,
  type FakeTwilioFaults,
  type FakeTwilioMedia,
  type FakeTwilioMessage,
  type FakeTwilioOptions,
  type FakeTwilioRecipient,
} from './fake-twilio';
export { signTwilioCall } from './fake-twilio-resources';
