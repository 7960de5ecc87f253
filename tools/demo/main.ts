/**
 * `npm run demo`: the whole bot offline in one command — sandbox providers, playground (Bot API
 * emulator + chat page) and the bot — with a fresh encryption key and temporary data directory
 * (unless ENCRYPTION_KEY / DATA_DIR are given), the sample game catalogue, and purchases that
 * settle after 5 s (SANDBOX_SETTLE_MS). Ctrl+C (SIGINT), SIGTERM or SIGHUP stops all of it, and so
 * does the end of the process that started it (npm signalled alone, as a CI runner or systemd does).
 *
 * It does not read `.env` (that file is for production): only SANDBOX_PORT, PLAYGROUND_PORT,
 * SANDBOX_SETTLE_MS, ENCRYPTION_KEY, DATA_DIR, GAMESHOP_CATALOGUE, ADMIN_IDS, LOG_LEVEL, ... from
 * the environment.
 */
import { runTool } from '../cli.ts';
import { startDemo, type Demo } from './demo.ts';
import { demoBanner } from './banner.ts';
import { watchLaunchers } from './lifeline.ts';

let demo: Demo | undefined;
let stopRequested = false;
const stop = async (code: number) => {
  stopRequested = true;
  if (!demo) return; // still starting: stopped as soon as it is up
  console.log('\nStopping the bot, the playground and the sandbox…');
  await demo.stop();
  console.log('Demo stopped.');
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
// npm, its shell or the terminal may be gone by now: a write to a closed pipe or terminal must not
// end the demo before it has stopped the bot and removed its data.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
// Started as `npm run demo`, a SIGTERM to npm reaches the shell under it only: the demo watches
// the processes that launched it and stops when one is gone.
watchLaunchers(() => {
  console.log('\nThe process that started the demo is gone.');
  void stop(0);
});

runTool(async () => {
  demo = await startDemo({ env: process.env });
  if (stopRequested) return void (await stop(0));
  const running = demo;
  void running.botExited.then((code) => {
    if (stopRequested) return;
    console.error(`The bot stopped on its own (exit code ${code}); see its lines above. Stopping the demo.`);
    void stop(1);
  });
  try {
    await running.playground.waitFor(() => running.playground.polling || stopRequested, { timeoutMs: 120_000 });
  } catch {
    if (stopRequested) return;
    console.error('The bot did not start polling the playground within 2 minutes; see its lines above. Stopping the demo.');
    return void (await stop(1));
  }
  if (stopRequested) return;
  console.log(demoBanner(running));
});
