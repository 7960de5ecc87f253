import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createResellerSim,
  resellerDemoAccounts,
  resellerDemoProducts,
  type ResellerSim,
  type ResellerSimOptions,
} from '../../tools/sandbox/reseller.ts';
import type { SandboxRequest, SandboxResponse } from '../../tools/sandbox/types.ts';
import { anyString, objectContaining, stringContaining, stringMatching } from '../helpers/matchers.ts';

const { main, second, poor, blocked } = resellerDemoAccounts;
const start = Date.parse('2025-01-31T06:00:00Z'); // 13:00 WIB

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function request(path: string, body: unknown, init: { method?: string; contentType?: string } = {}): SandboxRequest {
  return {
    method: init.method ?? 'POST',
    path,
    query: new URLSearchParams(),
    headers: {},
    contentType: init.contentType ?? 'application/json',
    rawBody: body === undefined ? '' : JSON.stringify(body),
    body,
    ip: '127.0.0.1',
  };
}

/** Signed bodies, as a correct client builds them. */
const account = (a: { apiId: string; apiKey: string } = main) => ({ api_id: a.apiId, sign: md5(a.apiId + a.apiKey) });
const purchase = (refId: string, code: string, target: string, a: { apiId: string; apiKey: string } = main) => ({
  api_id: a.apiId,
  sign: md5(a.apiId + a.apiKey + refId),
  ref_id: refId,
  code,
  target,
});

type Answer = SandboxResponse & { body: Record<string, unknown> };
const call = async (sim: ResellerSim, req: SandboxRequest) => (await sim.handle(req)) as Answer;

function setup(options: ResellerSimOptions = {}) {
  let clock = start;
  const sim = createResellerSim({ now: () => clock, seed: 1, ...options });
  return {
    sim,
    advance: (ms: number) => void (clock += ms),
    buy: (refId: string, code: string, target: string, a?: { apiId: string; apiKey: string }) =>
      call(sim, request('/transaction', purchase(refId, code, target, a))),
  };
}

const priceOf = (code: string) => resellerDemoProducts.find((p) => p.code === code)!.price;

describe('catalogue and accounts', () => {
  it('lists 100+ products with the four documented fields, integer prices and some unavailable ones', async () => {
    const { sim } = setup();
    const answer = await call(sim, request('/price-list', account()));
    expect(answer.status).toBe(200);
    const data = answer.body.data as Array<Record<string, unknown>>;
    expect(data.length).toBeGreaterThanOrEqual(100);
    for (const product of data) {
      expect(Object.keys(product).sort()).toEqual(['code', 'price', 'product_name', 'status']);
      expect(Number.isInteger(product.price)).toBe(true);
    }
    expect(new Set(data.map((p) => p.code)).size).toBe(data.length);
    expect(data.filter((p) => p.status !== 'active').length).toBeGreaterThanOrEqual(3);
    const brands = new Set(resellerDemoProducts.map((p) => p.brand));
    for (const brand of [
      'Telkomsel',
      'Indosat',
      'XL',
      'Axis',
      'Tri',
      'Smartfren',
      'PLN',
      'Mobile Legends',
      'Free Fire',
      'PUBG Mobile',
      'Genshin Impact',
      'DANA',
      'OVO',
      'GoPay',
    ]) {
      expect(brands.has(brand)).toBe(true);
    }
  });

  it('answers each demo account its own balance', async () => {
    const { sim } = setup();
    for (const a of [main, second, poor]) {
      expect(await call(sim, request('/cek-saldo', account(a)))).toMatchObject({ status: 200, body: { data: { balance: a.balance } } });
    }
    expect(main.balance).toBe(1_000_000);
    expect(poor.balance).toBe(5_000);
  });
});

describe('authentication', () => {
  it("answers a bad sign with 401 { error: 'Signature tidak valid' } on cek-saldo and price-list", async () => {
    const { sim } = setup();
    for (const path of ['/cek-saldo', '/price-list']) {
      const answer = await call(sim, request(path, { api_id: main.apiId, sign: md5(main.apiId + 'wrong') }));
      expect(answer).toMatchObject({ status: 401, body: { error: 'Signature tidak valid' } });
    }
  });

  it('answers a bad sign on /transaction with 401 { success:false, message }', async () => {
    const { sim } = setup();
    const body = { ...purchase('R1', 'TSEL10', '081234567890'), sign: md5(main.apiId + main.apiKey) }; // variant A where B is due
    expect(await call(sim, request('/transaction', body))).toMatchObject({
      status: 401,
      body: { success: false, message: 'Signature tidak valid' },
    });
    expect(sim.transactions()).toHaveLength(0);
  });

  it('requires the lowercase hex digest and rejects an unknown api_id the same way', async () => {
    const { sim } = setup();
    const upper = { api_id: main.apiId, sign: md5(main.apiId + main.apiKey).toUpperCase() };
    expect((await call(sim, request('/cek-saldo', upper))).status).toBe(401);
    const stranger = account({ apiId: 'NOBODY', apiKey: 'x' });
    expect(await call(sim, request('/cek-saldo', stranger))).toMatchObject({ status: 401, body: { error: 'Signature tidak valid' } });
  });

  it('answers the IP-blocked account 403 in each endpoint body shape', async () => {
    const { sim } = setup();
    expect(await call(sim, request('/cek-saldo', account(blocked)))).toMatchObject({ status: 403, body: { error: 'IP Blocked' } });
    expect(await call(sim, request('/price-list', account(blocked)))).toMatchObject({ status: 403, body: { error: 'IP Blocked' } });
    const buy = await call(sim, request('/transaction', purchase('R1', 'TSEL10', '081234567890', blocked)));
    expect(buy).toMatchObject({ status: 403, body: { success: false, message: 'IP Blocked' } });
    expect(sim.balanceOf(blocked.apiId)).toBe(blocked.balance);
  });
});

describe('request format', () => {
  it('answers another method with 405 in the endpoint body shape', async () => {
    const { sim } = setup();
    const balance = await call(sim, request('/cek-saldo', undefined, { method: 'GET', contentType: '' }));
    expect(balance).toMatchObject({ status: 405, body: { error: anyString() }, headers: { Allow: 'POST' } });
    const transaction = await call(sim, request('/transaction', undefined, { method: 'GET', contentType: '' }));
    expect(transaction).toMatchObject({ status: 405, body: { success: false, message: anyString() } });
  });

  it('answers a form body, invalid JSON or a JSON array with 400', async () => {
    const { sim } = setup();
    const form = { ...request('/cek-saldo', account()), contentType: 'application/x-www-form-urlencoded' };
    expect(await call(sim, form)).toMatchObject({ status: 400, body: { error: stringContaining('application/json') } });
    const broken = { ...request('/transaction', undefined), rawBody: '{"api_id": ' };
    expect(await call(sim, broken)).toMatchObject({ status: 400, body: { success: false, message: anyString() } });
    expect((await call(sim, request('/cek-saldo', [account()]))).status).toBe(400);
  });

  it('names a missing or mistyped field in a 400', async () => {
    const { sim } = setup();
    const { target: _target, ...noTarget } = purchase('R1', 'TSEL10', '081234567890');
    expect(await call(sim, request('/transaction', noTarget))).toMatchObject({
      status: 400,
      body: { success: false, message: 'Parameter target wajib diisi' },
    });
    expect(await call(sim, request('/cek-saldo', { api_id: main.apiId }))).toMatchObject({
      status: 400,
      body: { error: 'Parameter sign wajib diisi' },
    });
    const numeric = { ...purchase('R1', 'TSEL10', '081234567890'), target: 81234567890 };
    expect(await call(sim, request('/transaction', numeric))).toMatchObject({
      status: 400,
      body: { message: 'Parameter target harus berupa string' },
    });
  });

  it('answers an unknown path with 404', async () => {
    const { sim } = setup();
    expect((await call(sim, request('/saldo', account()))).status).toBe(404);
  });
});

describe('transactions', () => {
  it('creates Pending with a trx_id and an empty sn, debiting the price', async () => {
    const { sim, buy } = setup();
    const answer = await buy('R1', 'TSEL10', '081234567890');
    expect(answer).toEqual({ status: 200, body: { success: true, trx_id: 'TRX20250131000001', status: 'Pending', sn: '' } });
    expect(sim.balanceOf(main.apiId)).toBe(main.balance - priceOf('TSEL10'));
    expect(sim.transactions()).toEqual([
      objectContaining({
        refId: 'R1',
        apiId: main.apiId,
        code: 'TSEL10',
        target: '081234567890',
        price: priceOf('TSEL10'),
        status: 'Pending',
        checks: 0,
        createdAt: start,
      }),
    ]);
  });

  it('treats a repeated ref_id as a status check: no new transaction, no second debit', async () => {
    const { sim, buy } = setup({ settleAfterChecks: Infinity, settleAfterMs: Infinity });
    await buy('R1', 'TSEL10', '081234567890');
    const again = await buy('R1', 'TSEL10', '081234567890');
    expect(again).toEqual({ status: 200, body: { status: 'Pending', trx_id: 'TRX20250131000001', sn: '' } });
    expect(sim.transactions()).toHaveLength(1);
    expect(sim.transactions()[0]!.checks).toBe(1);
    expect(sim.balanceOf(main.apiId)).toBe(main.balance - priceOf('TSEL10'));
  });

  it('answers the bare { status } when asked to', async () => {
    const { buy } = setup({ minimalStatusCheck: true });
    await buy('R1', 'TSEL10', '081234567890');
    expect((await buy('R1', 'TSEL10', '081234567890')).body).toEqual({ status: 'Pending' });
  });

  it('refuses a repeated ref_id with another code or target', async () => {
    const { sim, buy } = setup();
    await buy('R1', 'TSEL10', '081234567890');
    expect(await buy('R1', 'TSEL10', '081299990000')).toMatchObject({
      status: 400,
      body: { success: false, message: stringContaining('ref_id') },
    });
    expect(await buy('R1', 'TSEL20', '081234567890')).toMatchObject({ status: 400 });
    expect(sim.transactions()).toHaveLength(1);
  });

  it('keeps ref_ids per account', async () => {
    const { sim, buy } = setup();
    await buy('R1', 'TSEL10', '081234567890');
    expect(await buy('R1', 'TSEL10', '081234567890', second)).toMatchObject({ status: 200, body: { success: true } });
    expect(sim.transactions()).toHaveLength(2);
  });

  it('answers 404 for an unknown code, 400 for an unavailable product, 402 for too little balance, recording nothing', async () => {
    const { sim, buy } = setup();
    expect(await buy('R1', 'NOPE', '081234567890')).toEqual({ status: 404, body: { success: false, message: 'Produk tidak ditemukan' } });
    const unavailable = await buy('R2', 'TSEL150', '081234567890');
    expect(unavailable).toMatchObject({ status: 400, body: { success: false, message: stringMatching(/tidak tersedia: gangguan$/) } });
    expect(await buy('R3', 'TSEL10', '081234567890', poor)).toEqual({
      status: 402,
      body: { success: false, message: 'Saldo tidak mencukupi' },
    });
    expect(await buy('R4', 'FF5', '123456789', poor)).toMatchObject({ status: 200 }); // Rp 5.000 covers small game top-ups
    expect(sim.transactions().map((tx) => tx.refId)).toEqual(['R4']);

    sim.setProductStatus('TSEL150', 'active');
    expect(await buy('R2', 'TSEL150', '081234567890')).toMatchObject({ status: 200 });
  });

  it('settles Pending to Sukses with a 20-digit SN on the configured check', async () => {
    const { sim, buy } = setup({ settleAfterChecks: 2 });
    await buy('R1', 'ML86', '12345678');
    expect((await buy('R1', 'ML86', '12345678')).body.status).toBe('Pending');
    const settled = await buy('R1', 'ML86', '12345678');
    expect(settled.body).toEqual({ status: 'Sukses', trx_id: 'TRX20250131000001', sn: stringMatching(/^\d{20}$/) });
    expect(sim.transactions()[0]).toMatchObject({ status: 'Sukses', checks: 2, settledAt: start });
    expect(sim.balanceOf(main.apiId)).toBe(main.balance - priceOf('ML86'));
  });

  it('settles by time with the injected clock, and gives PLN a token', async () => {
    const { sim, buy, advance } = setup({ settleAfterMs: 5000 });
    await buy('R1', 'PLN20', '532100112233');
    advance(4999);
    expect(sim.transactions()[0]!.status).toBe('Pending');
    advance(1);
    expect(sim.transactions()[0]).toMatchObject({ status: 'Sukses', sn: stringMatching(/^\d{4}(-\d{4}){4}\/.+\/R1\/1300VA\/13\.8$/) });
    expect((await buy('R1', 'PLN20', '532100112233')).body.status).toBe('Sukses');
  });

  it('by default settles after 5 s or 2 checks, whichever comes first', async () => {
    const { sim, buy, advance } = setup();
    await buy('R1', 'TSEL10', '081234567890');
    await buy('R2', 'TSEL10', '081234567891');
    await buy('R2', 'TSEL10', '081234567891');
    await buy('R2', 'TSEL10', '081234567891');
    expect(sim.transactions().map((tx) => tx.status)).toEqual(['Pending', 'Sukses']);
    advance(5000);
    expect(sim.transactions().map((tx) => tx.status)).toEqual(['Sukses', 'Sukses']);
  });

  it('fails targets ending in 0000 and refunds the price', async () => {
    const { sim, buy } = setup({ settleAfterChecks: 1 });
    await buy('R1', 'TSEL50', '081200000000');
    expect(sim.balanceOf(main.apiId)).toBe(main.balance - priceOf('TSEL50'));
    expect((await buy('R1', 'TSEL50', '081200000000')).body).toMatchObject({ status: 'Gagal', sn: '' });
    expect(sim.balanceOf(main.apiId)).toBe(main.balance);
    await buy('R1', 'TSEL50', '081200000000');
    expect(sim.balanceOf(main.apiId)).toBe(main.balance); // refunded once only
  });

  it('keeps targets ending in 9999 Pending forever', async () => {
    const { sim, buy, advance } = setup({ settleAfterChecks: 1, settleAfterMs: 1000 });
    await buy('R1', 'TSEL10', '081299999999');
    for (let i = 0; i < 5; i++) await buy('R1', 'TSEL10', '081299999999');
    advance(24 * 60 * 60 * 1000);
    expect(sim.transactions()[0]).toMatchObject({ status: 'Pending', checks: 5 });
  });

  it('answers the outcome right away when instant, and honours a custom outcome verbatim', async () => {
    const instant = setup({ instant: true });
    expect((await instant.buy('R1', 'DANA10', '081234567890')).body).toMatchObject({ status: 'Sukses', sn: stringMatching(/^\d{20}$/) });
    expect((await instant.buy('R2', 'DANA10', '081200000000')).body).toMatchObject({ status: 'Gagal' });
    expect(instant.sim.balanceOf(main.apiId)).toBe(main.balance - priceOf('DANA10'));

    const custom = setup({ settleAfterChecks: 1, outcome: (tx) => (tx.checks < 2 ? 'Proses' : 'Sukses') });
    await custom.buy('R1', 'TSEL10', '081234567890');
    expect((await custom.buy('R1', 'TSEL10', '081234567890')).body.status).toBe('Proses');
    expect((await custom.buy('R1', 'TSEL10', '081234567890')).body.status).toBe('Sukses');
  });

  it('lets a test force an outcome, keeping the balance consistent', async () => {
    const { sim, buy } = setup({ settleAfterChecks: Infinity });
    await buy('R1', 'XLD5GB', '081811112222');
    const price = priceOf('XLD5GB');
    expect(sim.settle('R1', 'Gagal')).toMatchObject({ status: 'Gagal', refunded: true });
    expect(sim.balanceOf(main.apiId)).toBe(main.balance);
    expect(sim.settle('R1', 'Sukses', 'SN-FORCED')).toMatchObject({ status: 'Sukses', sn: 'SN-FORCED', refunded: false });
    expect(sim.balanceOf(main.apiId)).toBe(main.balance - price);
    expect((await buy('R1', 'XLD5GB', '081811112222')).body).toMatchObject({ status: 'Sukses', sn: 'SN-FORCED' });
    expect(() => sim.settle('NOPE', 'Sukses')).toThrow(/NOPE/);
  });

  it('lets a test add accounts and set balances', async () => {
    const { sim, buy } = setup();
    sim.addAccount({ apiId: 'T-NEW', apiKey: 'k', balance: 0 });
    const newcomer = { apiId: 'T-NEW', apiKey: 'k' };
    expect(await buy('R1', 'TSEL5', '081234567890', newcomer)).toMatchObject({ status: 402 });
    sim.setBalance('T-NEW', 10_000);
    expect(await buy('R1', 'TSEL5', '081234567890', newcomer)).toMatchObject({ status: 200 });
    expect(sim.balanceOf('T-NEW')).toBe(10_000 - priceOf('TSEL5'));
    expect(() => sim.balanceOf('NOBODY')).toThrow(/NOBODY/);
  });

  it('is deterministic for a given seed', async () => {
    const sns: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { sim, buy } = setup({ instant: true, seed: 99 });
      await buy('R1', 'ML86', '12345678');
      sns.push(sim.transactions()[0]!.sn);
    }
    expect(sns[0]).toBe(sns[1]);
  });
});

describe('changing the price list between two fetches', () => {
  const priceList = async (sim: ResellerSim) =>
    (await call(sim, request('/price-list', account()))).body.data as Array<{
      code: string;
      price: number;
      status: string;
      product_name: string;
    }>;

  it('changes prices and statuses, adds and removes products; the next /price-list shows it', async () => {
    const { sim, buy } = setup();
    sim.setProduct('TSEL10', { price: 11000 });
    sim.setProduct('XL10', { status: 'kosong' });
    sim.setProduct('TSEL5', { price: 5600, status: 'gangguan' });
    sim.addProduct({ code: 'NEW1', name: 'Telkomsel 1.000', price: 1500, status: 'active', brand: 'Telkomsel', category: 'pulsa' });
    sim.removeProduct('TSEL15');

    const list = await priceList(sim);
    const byCode = new Map(list.map((p) => [p.code, p]));
    expect(byCode.get('TSEL10')).toMatchObject({ price: 11000, status: 'active' });
    expect(byCode.get('XL10')).toMatchObject({ status: 'kosong' });
    expect(byCode.get('TSEL5')).toMatchObject({ price: 5600, status: 'gangguan' });
    expect(list.at(-1)).toEqual({ code: 'NEW1', product_name: 'Telkomsel 1.000', price: 1500, status: 'active' });
    expect(byCode.has('TSEL15')).toBe(false);
    expect(list).toHaveLength(resellerDemoProducts.length);

    // Buying follows the list: a removed product is unknown, a new one is sold at its price.
    expect((await buy('R1', 'TSEL15', '081234567890')).status).toBe(404);
    expect((await buy('R2', 'NEW1', '081234567890')).status).toBe(200);
    expect(sim.transactions()[0]?.price).toBe(1500);
  });

  it('refuses unknown codes and bad prices with a message naming them', () => {
    const { sim } = setup();
    expect(() => sim.setProduct('NOPE', { price: 1 })).toThrow('no product "NOPE"');
    expect(() => sim.removeProduct('NOPE')).toThrow('no product "NOPE"');
    expect(() => sim.setProduct('TSEL10', { price: -5 })).toThrow();
    expect(sim.products().find((p) => p.code === 'TSEL10')?.price).toBe(priceOf('TSEL10'));
  });
});
