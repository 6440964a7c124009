import { systemTimerClock } from '@switchboard/provider-kit';
import { describeProviderConformance } from '@switchboard/testing';
import { FakeWhatsAppNetwork } from './fake-baileys-socket';
import { PairedBaileysProvider } from './paired-provider';

const OWNED = '+14155550100';
const LINKED_LATER = '+14155550101';
const CONTACT = '+14155550123';
const MEMBER = '+14155550124';
const FAILING = '+14155550125';

function network(): FakeWhatsAppNetwork {
  return new FakeWhatsAppNetwork(systemTimerClock, { receiptDelayMs: 5, firstQrMs: 60_000 })
    .addUser({ phoneNumber: OWNED, lid: '90000000000100@lid' })
    .addUser({ phoneNumber: LINKED_LATER, lid: '90000000000101@lid' })
    .addUser({ phoneNumber: CONTACT, lid: '90000000000123@lid' })
    .addUser({ phoneNumber: MEMBER, lid: '90000000000124@lid' })
    .addUser({ phoneNumber: FAILING, lid: '90000000000125@lid', behaviour: 'fail' });
}

// One WhatsApp for the whole suite: it remembers linked devices across an instance's restarts.
const current = network();

describeProviderConformance({
  name: 'baileys (fake socket)',
  channel: 'whatsapp',
  from: OWNED,
  create: () => ({ provider: new PairedBaileysProvider(current, OWNED) }),
  recipients: { deliverable: CONTACT, failing: FAILING, groupMembers: [CONTACT, MEMBER] },
  lifecycle: ['sent', 'delivered', 'read'],
  supports: { edit: false, unsend: false, react: true, typing: true, groups: true },
  inbound: {
    'message.inbound': async (_provider, from) => {
      await current.receive(OWNED, { from, text: 'Hello from the phone' });
    },
    'message.reaction': async (_provider, from) => {
      await current.react(
        OWNED,
        from,
        { remoteJid: `${from.slice(1)}@s.whatsapp.net`, id: '3EB0AAAA', fromMe: true },
        '👍',
      );
    },
    'message.changed': async (_provider, from) => {
      await current.revoke(OWNED, from, '3EB0BBBB');
    },
    typing: async (_provider, from) => {
      await current.presence(OWNED, from, 'composing');
    },
    'whatsapp.lid_resolved': async (_provider, from) => {
      await current.resolveLid(OWNED, from);
    },
  },
  whatsapp: {
    phoneNumber: LINKED_LATER,
    link: async (_provider, phoneNumber) => {
      await current.scanQr(phoneNumber);
    },
  },
});
