/**
 * Connecting a service the way a user does it: /connect, tap the service, type the credentials.
 * Other tests use `connectReseller` when the connection itself is part of what they prove.
 */
import type { TestWorld } from './app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import type { ServiceName } from '../../src/domain.ts';
import type { ServiceCredentials } from '../../src/providers/factory.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { connectData } from '../../src/bot/callback-data/connect.ts';

/** Success answers of the connect conversation start with ✅, failures with ❌. */
const resultPattern = /^(✅|❌)/u;

function hasButton(message: EmulatedMessage, data: string): boolean {
  return (message.inlineKeyboard?.inline_keyboard ?? [])
    .flat()
    .some((button) => 'callback_data' in button && button.callback_data === data);
}

/**
 * Drives /connect for `service` end to end and resolves with the bot's success message (the one
 * starting with ✅) once the credentials are verified and stored and the conversation has ended.
 * If the service is already connected, it taps "replace". Rejects with the bot's answer when the
 * provider refused the credentials.
 *
 * It sends 4 updates for the reseller (3 for the others, one more when replacing); the bot's
 * flood limit allows 8 per user within 3 s, so seed what is not under test through
 * `world.app.services.credentials.verifyAndSave` instead of connecting several times in a row.
 */
export async function connectService<S extends ServiceName>(
  world: TestWorld,
  user: EmulatedUser,
  service: S,
  credentials: ServiceCredentials[S],
): Promise<EmulatedMessage> {
  const { telegram } = world;
  const picker = await telegram.waitForBotMessage(user, {
    after: user.send('/connect'),
    where: (m) => hasButton(m, connectData.pack({ action: 'pick', service })),
  });
  user.tap(picker, connectData.pack({ action: 'pick', service }));
  const replace = connectData.pack({ action: 'replace', service });
  const next = await telegram.waitFor(
    () => (hasButton(picker, replace) ? 'replace' : telegram.botMessages(user).find((m) => m.messageId > picker.messageId && !m.deleted)),
    { message: `the bot did not ask for the ${service} credentials after the service was picked` },
  );
  let prompt: EmulatedMessage;
  if (next === 'replace') {
    user.tap(picker, replace);
    prompt = await telegram.waitForBotMessage(user, { after: picker });
  } else {
    prompt = next;
  }

  const secrets =
    service === 'reseller' ? [(credentials as ServiceCredentials['reseller']).apiId, credentials.apiKey] : [credentials.apiKey];
  let last: EmulatedMessage = prompt;
  for (const [index, secret] of secrets.entries()) {
    const sent = user.send(secret);
    if (index < secrets.length - 1) {
      await telegram.waitForBotMessage(user, { after: sent });
    }
    last = sent;
  }
  const result = await telegram.waitForBotMessage(user, { after: last, textIncludes: resultPattern, timeoutMs: 8000 });
  if (!result.text?.startsWith('✅')) throw new Error(`connecting ${service} failed; the bot answered: ${result.text ?? '(no text)'}`);
  return result;
}

/**
 * Connects a reseller account through the real /connect conversation (API ID, then API key) and
 * resolves with the bot's success message. `account` defaults to the sandbox's main demo account
 * (Rp 1.000.000).
 */
export function connectReseller(
  world: TestWorld,
  user: EmulatedUser,
  account: { apiId: string; apiKey: string } = resellerDemoAccounts.main,
): Promise<EmulatedMessage> {
  return connectService(world, user, 'reseller', { apiId: account.apiId, apiKey: account.apiKey });
}
