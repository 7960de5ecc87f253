/**
 * The opening every operator command shares: read `.env` like `npm start`, mask secrets in the
 * process output, and parse the variables the command needs (or print what is wrong and exit 1).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { installOutputGuard, outputSecrets } from '../output-guard.ts';

export function startCommand<T>(parse: (env: Record<string, string | undefined>) => T): T {
  if (existsSync('.env')) process.loadEnvFile('.env');
  installOutputGuard(outputSecrets(process.env));
  try {
    return parse(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
