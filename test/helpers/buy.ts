/**
 * Helpers of the buy tests: a connected user, the summary of a purchase and its result.
 */
import type { TestWorld } from './app.ts';
import type { EmulatedMessage, EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts, type ResellerSimAccount } from '../../tools/sandbox/reseller.ts';
import { connectReseller } from './connect.ts';

/**
 * A new user (Indonesian unless told) with their reseller account connected. With `via:
 * 'connect'` the user connects through /connect like a real reseller; otherwise (the default) the
 * user writes /start once and the credentials are seeded through the credential service — the
 * subject of most buy tests is buying, and the four /connect updates would eat into the per-user
 * flood limit (15 updates in 3 s) that a multi-step purchase test needs.
 */
export async function buyer(
  world: TestWorld,
  firstName = 'Budi',
  options: { languageCode?: string; account?: ResellerSimAccount; via?: 'seed' | 'connect' } = {},
): Promise<EmulatedUser> {
  const user = world.telegram.createUser({ firstName, languageCode: options.languageCode ?? 'id' });
  const { apiId, apiKey } = options.account ?? resellerDemoAccounts.main;
  if (options.via === 'connect') {
    await connectReseller(world, user, { apiId, apiKey });
    return user;
  }
  await world.telegram.waitForBotMessage(user, { after: user.send('/start') });
  await world.app.services.credentials.verifyAndSave(user.id, 'reseller', { apiId, apiKey });
  return user;
}

/** The purchase summary (the bot message with the Confirm button) sent after `after`. */
export function waitForSummary(world: TestWorld, user: EmulatedUser, after: EmulatedMessage): Promise<EmulatedMessage> {
  return world.telegram.waitForBotMessage(user, {
    after,
    where: (message) => message.buttons.flat().some((text) => text.includes('Konfirmasi') || text.includes('Confirm')),
  });
}

/** The final result of a purchase (the "sending…" message once edited), after `after`. */
export function waitForResult(
  world: TestWorld,
  user: EmulatedUser,
  after: EmulatedMessage,
  textIncludes: string | RegExp,
): Promise<EmulatedMessage> {
  return world.telegram.waitForBotMessage(user, { after, textIncludes });
}

/** Transactions the reseller sandbox received for this account. */
export function sandboxTransactions(world: TestWorld, apiId: string = resellerDemoAccounts.main.apiId) {
  return world.sandbox.reseller.transactions().filter((tx) => tx.apiId === apiId);
}

/** Text of every `code` entity of a message (what Telegram shows as tap-to-copy). */
export function codeTexts(message: EmulatedMessage): string[] {
  const text = message.message.text ?? '';
  return (message.message.entities ?? []).filter((e) => e.type === 'code').map((e) => text.slice(e.offset, e.offset + e.length));
}

/**
 * Resolves once `condition` holds, checking every few milliseconds (for state the emulator does
 * not see change, such as the store); fails after `timeoutMs`.
 */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`eventually: condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The text of the first button of `message` whose label starts with `prefix` (fails when there is none). */
export function buttonStarting(message: EmulatedMessage, prefix: string): string {
  const label = message.buttons.flat().find((text) => text.startsWith(prefix));
  if (label === undefined) throw new Error(`no button starting with "${prefix}" in ${JSON.stringify(message.buttons)}`);
  return label;
}

/**
 * Taps the button of `message` whose label starts with `prefix` and resolves once the message has
 * been edited (by the step that follows) and shows `includes` in its text or a button. Returns the tap.
 */
export async function tapThrough(world: TestWorld, user: EmulatedUser, message: EmulatedMessage, prefix: string, includes: string) {
  const edits = message.history.length;
  const query = user.tap(message, buttonStarting(message, prefix));
  await world.telegram.waitFor(
    () => message.history.length > edits && [message.text ?? '', ...message.buttons.flat()].some((text) => text.includes(includes)),
  );
  return query;
}
