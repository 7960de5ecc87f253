/**
 * What the tools' entry points (`npm run sandbox`, `npm run playground`, `npm run demo`) share:
 * reading `.env` like the bot does, port variables, and saying which variable to change when a
 * port is taken. Development tools only: src/ never imports this.
 */
import { existsSync } from 'node:fs';

/** Reads `.env` in the current directory, if any; variables already set win (like `npm start`). */
export function loadDotEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

/** A tool cannot start; `message` says what to do. Entry points print it and exit 1. */
export class ToolStartError extends Error {}

/** The port in `variable` (a whole number 0-65535; 0 picks a free one), or `fallback`. */
export function portFromEnv(env: NodeJS.ProcessEnv, variable: string, fallback: number): number {
  const text = env[variable]?.trim();
  const port = text ? Number(text) : fallback;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ToolStartError(`${variable} must be a port number (0-65535; 0 picks a free one), got "${text}".`);
  return port;
}

/**
 * Runs `listen` (a server start); a failure to listen becomes a ToolStartError that names the
 * address and the variable choosing the port (busy port, no permission, unknown host).
 */
export async function listenOrExplain<T>(
  what: string,
  variable: string,
  where: { host: string; port: number },
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : '';
    const address = `${where.host}:${where.port}`;
    if (code === 'EADDRINUSE')
      throw new ToolStartError(
        `${what} cannot listen on ${address}: the port is already in use (another ${what}, or another program). ` +
          `Choose a free port with ${variable} (for example ${variable}=${where.port + 1}, or ${variable}=0 for any free port), or stop what uses it.`,
      );
    if (code === 'EACCES')
      throw new ToolStartError(`${what} may not listen on ${address} (permission denied). Choose a port above 1023 with ${variable}.`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolStartError(`${what} cannot listen on ${address}: ${reason}. Check ${variable} and the host variable.`);
  }
}

/** Runs an entry point's `main`: a ToolStartError is printed (no stack trace) and exits 1. */
export function runTool(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ToolStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
}
