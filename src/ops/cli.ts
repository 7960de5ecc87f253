/**
 * The opening every command shares (`npm start` and the operator commands): read `.env`, mask
 * secrets in everything the process prints (crash traces too), and parse the variables the command
 * needs (or print what is wrong and exit 1).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../config.ts';
import { installOutputGuard, outputSecrets, printCrashesMasked } from '../output-guard.ts';

export function startCommand<T>(parse: (env: Record<string, string | undefined>) => T): T {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const secrets = outputSecrets(process.env);
  installOutputGuard(secrets);
  printCrashesMasked(secrets);
  try {
    return parse(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
