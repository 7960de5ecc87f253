/**
 * Seeding for tests whose subject is not connecting or buying (status, history, receipts):
 * credentials through the credential service, transactions through the purchase service,
 * exactly as the buy flow records and sends them.
 */
import type { TestWorld } from './app.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { resellerDemoAccounts, type ResellerSimAccount } from '../../tools/sandbox/reseller.ts';
import { claimDefaults } from '../../src/store/claim-holder.ts';

/** A new emulated user whose reseller account is connected. */
export async function seedConnectedUser(
  world: TestWorld,
  firstName: string,
  options: { languageCode?: string; account?: ResellerSimAccount } = {},
): Promise<EmulatedUser> {
  const user = world.telegram.createUser({ firstName, languageCode: options.languageCode ?? 'id' });
  const { apiId, apiKey } = options.account ?? resellerDemoAccounts.main;
  await world.app.services.credentials.verifyAndSave(user.id, 'reseller', { apiId, apiKey });
  return user;
}

let confirmations = 0;

/**
 * Confirms and submits one purchase for `user` (Pending at the sandbox, which in the harness
 * settles only after many checks; a target ending in 0000 fails). Returns its ref id.
 *
 * Like the buy flow, it confirms with the submit hold, so a running watcher leaves the purchase to
 * this submit. Without it the new `Created` transaction is due at once: a watcher tick during a
 * slow send joins it, waits on its claim and takes its answer, and that pass can still be in
 * flight when the test's own `runOnce` starts - which then skips the transaction (a call for it is
 * in flight) and checks nothing.
 */
export async function seedPurchase(
  world: TestWorld,
  user: EmulatedUser,
  line: { code?: string; productName?: string; target?: string; price?: number } = {},
): Promise<string> {
  const [tx] = await world.app.services.purchases.confirm({
    confirmationId: `seed-${++confirmations}`,
    userId: user.id,
    chatId: user.id,
    lines: [
      {
        code: line.code ?? 'TSEL10',
        productName: line.productName ?? 'Telkomsel 10.000',
        target: line.target ?? '081234567890',
        price: line.price ?? 10500,
      },
    ],
    holdMs: claimDefaults.leaseMs,
  });
  if (!tx) throw new Error('seedPurchase: the purchase service recorded nothing');
  await world.app.services.purchases.submit(tx.refId);
  return tx.refId;
}

/** Requests the sandbox received for one ref id (creates and status checks alike). */
export function transactionRequests(world: TestWorld, refId: string): number {
  return world.sandbox.received.filter(
    (request) =>
      request.service === 'reseller' &&
      request.path === '/transaction' &&
      (request.body as { ref_id?: unknown } | undefined)?.ref_id === refId,
  ).length;
}
