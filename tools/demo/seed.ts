/**
 * The demo's downline, seeded before the bot starts: the page's first user (the upline) connected
 * to the demo reseller account with downline mode open, a Silver level with a visible markup and
 * payment instructions; the second user their downline at Silver with a small wallet.
 *
 * Everything goes through the bot's own services, opened with the bot's own composition root
 * (`createApp`) on the bot's data directory and closed again before the bot starts (one process
 * owns a data directory): the records are exactly what the same steps in the chat would make, and
 * the messages those steps queue (the upline told of the join, the downline of the join and of the
 * credit) are sent by the bot once it runs. A data directory that already knows the upline (one
 * kept with DATA_DIR) is left as it is.
 */
import { createApp } from '../../src/app.ts';
import type { Config } from '../../src/config.ts';
import { silentLogger } from '../../src/logger.ts';
import { invitePayload } from '../../src/services/downline-rules.ts';
import type { EmulatedUser } from '../playground/bot-api.ts';
import { resellerDemoAccounts } from '../sandbox/reseller.ts';

/** What the seed makes; the banner and README say the same. */
export const demoDownline = {
  level: 'Silver',
  /** The level's rule line (/downline level Silver Rp 500): a downline pays the upline's cost + Rp 500. */
  markup: 'Rp 500',
  markupRupiah: 500,
  /** The wallet the downline starts with, an adjustment by the upline. */
  wallet: 25_000,
  reason: 'saldo awal demo',
  payInfo: 'BCA 1234567890 a.n. Budi (demo: tidak ada transfer sungguhan, terima saja tiketnya)',
} as const;

/** The idempotency key of the starting credit (the ledger's `adjust:<key>`): seeding twice credits once. */
const walletKey = 'demo-seed-wallet';

/** Whether the seed ran now (false: the data directory knew the upline already). */
export type SeedOutcome = 'seeded' | 'kept';

/**
 * Seeds `upline` and `downline` (see the file comment) into the store `config` names. Rejects
 * with the step that failed: the demo cannot show its downline without it.
 */
export async function seedDemoDownline(config: Config, upline: EmulatedUser, downline: EmulatedUser): Promise<SeedOutcome> {
  const app = await createApp(config, { logger: silentLogger });
  try {
    const { accounts, credentials, downlines, wallets } = app.services;
    if (await app.db.users.get(upline.id)) return 'kept';
    // What the bot records of each at their first update.
    for (const { user } of [upline, downline])
      await accounts.seen({ id: user.id, firstName: user.first_name, username: user.username, telegramLocale: 'id' });
    // /hubungkan with the demo reseller account (checked against the sandbox, as the chat does).
    const { apiId, apiKey } = resellerDemoAccounts.main;
    await credentials.verifyAndSave(upline.id, 'reseller', { apiId, apiKey });
    // /downline, /downline level Silver Rp 500, /downline default Silver, /carabayar …
    expect('open downline mode', await downlines.open(upline.id), (r) => 'mode' in r);
    expect('save the level', await downlines.saveLevel(upline.id, demoDownline.level, [demoDownline.markup]), (r) => 'level' in r);
    expect('pick the default level', await downlines.setDefaultLevel(upline.id, demoDownline.level), (r) => !('refused' in r));
    expect('set the payment instructions', await wallets.setPayInfo(upline.id, demoDownline.payInfo), (r) => r === 'saved');
    // The downline opens an invite link (one use); auto-approve, on for this one join, puts them at the default level.
    await downlines.setAutoApprove(upline.id, true);
    const invite = await downlines.createInvite(upline.id, { uses: 1 });
    if (!('invite' in invite)) throw new Error(`seeding the demo downline: an invite link was refused (${invite.refused})`);
    const joined = await downlines.requestJoin(downline.id, invitePayload(upline.id, invite.invite.id));
    expect('join', joined, (r) => r.kind === 'joined');
    await downlines.setAutoApprove(upline.id, false);
    // /saldodl <downline> +25000 saldo awal demo
    const credited = await wallets.adjust(upline.id, downline.id, demoDownline.wallet, demoDownline.reason, walletKey);
    expect('credit the wallet', credited, (r) => r.kind === 'done');
    return 'seeded';
  } finally {
    await app.close();
  }
}

function expect<R>(step: string, result: R, ok: (result: R) => boolean): void {
  if (!ok(result)) throw new Error(`seeding the demo downline: "${step}" answered ${JSON.stringify(result)}`);
}
