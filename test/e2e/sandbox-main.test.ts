import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createResellerClient } from '../../src/providers/reseller/client.ts';
import { createMarketplaceClient } from '../../src/providers/marketplace/client.ts';
import { createGameshopClient } from '../../src/providers/gameshop/client.ts';
import { resellerDemoAccounts } from '../../tools/sandbox/reseller.ts';
import { marketplaceDemoAccounts } from '../../tools/sandbox/marketplace.ts';
import { gameshopDemoKeys } from '../../tools/sandbox/gameshop.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('npm run sandbox', () => {
  it('serves the three providers and prints their URLs and the demo credentials', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/sandbox/main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, SANDBOX_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ctrl+C')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const url = (name: string) => new RegExp(`${name}=(\\S+)`).exec(output)?.[1] ?? '';
      expect(output).toContain(resellerDemoAccounts.main.apiKey);
      const reseller = createResellerClient({ baseURL: url('RESELLER_API_URL'), ...resellerDemoAccounts.main });
      expect(await reseller.balance()).toBe(1_000_000);
      const marketplace = createMarketplaceClient({ baseURL: url('MARKETPLACE_API_URL'), apiKey: marketplaceDemoAccounts.main.apiKey });
      expect((await marketplace.accountDetails()).username).toBe('nusantara-studio');
      const gameshop = createGameshopClient({ baseURL: url('GAMESHOP_API_URL'), apiKey: gameshopDemoKeys.main });
      expect((await gameshop.games()).popular.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);
});
