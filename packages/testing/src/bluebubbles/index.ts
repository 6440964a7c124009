/** A faithful local BlueBubbles Server for adapter tests and manual trials (`pnpm fake:bluebubbles`). */
export {
  FakeBlueBubbles,
  type FakeBlueBubblesFaults,
  type FakeBlueBubblesOptions,
  type FakeBlueBubblesSwitches,
  type FakeBlueBubblesWebhookCall,
  PRIVATE_API_ENABLED,
} from './fake-bluebubbles';
export type {
  FakeBlueBubblesAttachment,
  FakeBlueBubblesChat,
  FakeBlueBubblesMessage,
} from './fake-bluebubbles-model';
