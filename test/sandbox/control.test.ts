/** The sandbox's control endpoint: the demo changes the reseller price list over HTTP. */
import { afterEach, describe, expect, it } from 'vitest';
import { controlPrefix, startSandbox, type Sandbox } from '../../tools/sandbox/server.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox.close();
});

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}${controlPrefix}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
const product = (code: string) => sandbox.reseller.products().find((p) => p.code === code);

describe('sandbox control endpoint', () => {
  it('changes a price and a status, adds and removes a product', async () => {
    sandbox = await startSandbox();
    expect((await send('PATCH', '/TSEL10', { price: 11000, status: 'gangguan' })).status).toBe(200);
    expect(product('TSEL10')).toMatchObject({ price: 11000, status: 'gangguan' });
    const added = { code: 'NEW1', name: 'Telkomsel 1.000', price: 1500, status: 'active', brand: 'Telkomsel', category: 'pulsa' };
    expect((await send('POST', '', added)).status).toBe(200);
    expect(product('NEW1')).toEqual(added);
    expect((await send('DELETE', '/NEW1')).status).toBe(200);
    expect(product('NEW1')).toBeUndefined();
  });

  it('answers a clear 400 for an unknown code or a bad body, and 405 for anything else', async () => {
    sandbox = await startSandbox();
    const unknown = await send('PATCH', '/NOPE', { price: 1 });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('no product');
    expect((await send('PATCH', '/TSEL10', { price: -1 })).status).toBe(400);
    expect((await send('GET', '/TSEL10')).status).toBe(405);
  });
});
