import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type TestWorld } from '../helpers/app.ts';

/**
 * The per-user flood limit with its default: a person tapping through the /beli picker and the
 * menu (about a dozen updates in a few seconds) is never told to slow down; a burst beyond the
 * limit gets one "slow down" and is not served.
 */
describe('flood limit (default)', () => {
  let world: TestWorld;
  afterEach(async () => {
    await world.stop();
  });

  it('twelve updates in a row are all answered; the burst past the limit gets one "slow down"', async () => {
    world = await startWorld();
    const budi = world.telegram.createUser({ firstName: 'Budi', languageCode: 'id' });
    for (let i = 0; i < 12; i++) budi.send('/help');
    await world.idle();
    const slowDown = () => world.telegram.botMessages(budi).filter((m) => m.text?.includes('Pelan-pelan'));
    expect(slowDown()).toHaveLength(0);
    for (let i = 0; i < 10; i++) budi.send('/help');
    await world.idle();
    expect(slowDown()).toHaveLength(1);
    expect(world.telegram.botMessages(budi).filter((m) => m.text?.includes('/saldo')).length).toBeLessThan(22);
  });
});
