/**
 * The outside world of bench/updates.ts, in a process of its own: the emulated Bot API (standing
 * for Telegram) and the sandbox providers, on loopback. In production neither runs in the bot's
 * process: Telegram and the providers are other machines. Hosting them here keeps their work (the
 * emulator's bookkeeping of every chat, serialising getUpdates answers, parsing every sendMessage;
 * the sandbox answering balance and price-list requests) off the bot's event loop and out of its
 * CPU time and heap, so the benchmark's figures are the bot's own. Both bots of a run (kiosbot and
 * the minimal one) meet the same world.
 *
 * Driven by the parent over IPC (child_process.fork): one request, one answer, matched by `id`.
 */
import { startBotApi, type BotApiEmulator, type EmulatedUser } from '../tools/playground/bot-api.ts';
import { resellerDemoProducts } from '../tools/sandbox/reseller.ts';
import { startSandbox, type Sandbox } from '../tools/sandbox/server.ts';

export interface WorldUser {
  id: number;
  firstName: string;
  username?: string;
}

export type WorldRequest =
  | { id: number; op: 'start'; accounts: number; users: number }
  /** Queues each `[user index, text]` as a message update, in order. */
  | { id: number; op: 'send'; items: Array<[number, string]> }
  /** Where the call and request logs end now (what `counts` later counts from). */
  | { id: number; op: 'mark' }
  /** Adds a network round trip to every Bot API call from now on (the emulator's setNetworkDelay). */
  | { id: number; op: 'delay'; roundTripMs: number }
  | { id: number; op: 'counts'; fromCall: number; fromRequest: number }
  | { id: number; op: 'close' };

export interface WorldStarted {
  apiRoot: string;
  token: string;
  botInfo: BotApiEmulator['botInfo'];
  urls: Sandbox['urls'];
  users: WorldUser[];
}

export interface WorldCounts {
  /** Bot API calls by method since the mark. */
  calls: Record<string, number>;
  /** Provider requests by path since the mark. */
  requests: Record<string, number>;
  /** sendMessage calls per chat id since the mark. */
  messagesByChat: Record<string, number>;
  /** This process's CPU time (user + system) in ms since it started. */
  cpuMs: number;
}

let telegram: BotApiEmulator | undefined;
let sandbox: Sandbox | undefined;
let users: EmulatedUser[] = [];

async function handle(request: WorldRequest): Promise<unknown> {
  switch (request.op) {
    case 'start': {
      const accounts = Array.from({ length: request.accounts }, (_, i) => ({
        apiId: `BENCH-${i}`,
        apiKey: `bench-key-${i}`,
        balance: 1_000_000_000,
      }));
      sandbox = await startSandbox({
        reseller: { accounts, products: resellerDemoProducts, settleAfterChecks: 1000, settleAfterMs: 3_600_000 },
      });
      telegram = await startBotApi();
      const world = telegram;
      users = Array.from({ length: request.users }, (_, i) => world.createUser({ firstName: `Reseller ${i}`, languageCode: 'id' }));
      const started: WorldStarted = {
        apiRoot: world.apiRoot,
        token: world.token,
        botInfo: world.botInfo,
        urls: sandbox.urls,
        users: users.map(({ user }) => ({ id: user.id, firstName: user.first_name, username: user.username })),
      };
      return started;
    }
    case 'send':
      for (const [index, text] of request.items) telegram!.sendText(users[index]!, text);
      return null;
    case 'delay':
      telegram!.setNetworkDelay(request.roundTripMs);
      return null;
    case 'mark':
      return { call: telegram!.calls.length, request: sandbox!.received.length };
    case 'counts': {
      const counts: WorldCounts = { calls: {}, requests: {}, messagesByChat: {}, cpuMs: 0 };
      for (const call of telegram!.calls.slice(request.fromCall)) {
        counts.calls[call.method] = (counts.calls[call.method] ?? 0) + 1;
        if (call.method === 'sendMessage') {
          const chat = String(call.params.chat_id);
          counts.messagesByChat[chat] = (counts.messagesByChat[chat] ?? 0) + 1;
        }
      }
      for (const received of sandbox!.received.slice(request.fromRequest))
        counts.requests[received.path] = (counts.requests[received.path] ?? 0) + 1;
      const cpu = process.cpuUsage();
      counts.cpuMs = (cpu.user + cpu.system) / 1000;
      return counts;
    }
    case 'close':
      await telegram?.close();
      await sandbox?.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (request: WorldRequest) => {
  handle(request).then(
    (result) => process.send?.({ id: request.id, result }),
    (error: unknown) => process.send?.({ id: request.id, error: String(error) }),
  );
});
