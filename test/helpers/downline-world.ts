/**
 * An upline and a downline in a started world (DOWNLINES=true): Budi, connected to the sandbox's
 * main reseller account, with downline mode open, auto-approve on and level Bronze (Rp 500 over
 * his cost unless told), and Sari who joined through his invite link. Set up through the services
 * (only Sari's `/start dl_…` goes through the bot), so a test's own updates keep the flood limit.
 */
import type { TestWorld } from './app.ts';
import type { EmulatedUser } from '../../tools/playground/bot-api.ts';
import { buyer } from './buy.ts';
import { invitePayload } from '../../src/services/downline-rules.ts';

/** TSEL10 costs the upline Rp 10.450 in the sandbox; Bronze at Rp 500 sells it to the downline at Rp 10.950. */
export const tsel10Cost = 10_450;

export async function uplineAndDownline(
  world: TestWorld,
  options: { levelLines?: readonly string[]; wallet?: number; downlineLanguage?: string } = {},
): Promise<{ budi: EmulatedUser; sari: EmulatedUser }> {
  const budi = await buyer(world);
  const { downlines, wallets } = world.app.services;
  await downlines.open(budi.id);
  await downlines.saveLevel(budi.id, 'Bronze', options.levelLines ?? ['Rp 500']);
  await downlines.setAutoApprove(budi.id, true);
  const made = await downlines.createInvite(budi.id);
  if (!('invite' in made)) throw new Error(`no invite: ${made.refused}`);
  const sari = world.telegram.createUser({ firstName: 'Sari', username: 'sari', languageCode: options.downlineLanguage ?? 'id' });
  await world.telegram.waitForBotMessage(sari, {
    after: sari.send(`/start ${invitePayload(budi.id, made.invite.id)}`),
    textIncludes: options.downlineLanguage === 'en' ? 'downline' : 'Anda sekarang downline',
  });
  if (options.wallet) await wallets.adjust(budi.id, sari.id, options.wallet, 'modal awal', 'test-start');
  return { budi, sari };
}

/** Another downline of `upline` (auto-approve on), joined through a new invite link, at the default level. */
export async function anotherDownline(world: TestWorld, upline: EmulatedUser, firstName: string): Promise<EmulatedUser> {
  const made = await world.app.services.downlines.createInvite(upline.id);
  if (!('invite' in made)) throw new Error(`no invite: ${made.refused}`);
  const user = world.telegram.createUser({ firstName, languageCode: 'id' });
  await world.telegram.waitForBotMessage(user, {
    after: user.send(`/start ${invitePayload(upline.id, made.invite.id)}`),
    textIncludes: 'Anda sekarang downline',
  });
  return user;
}
