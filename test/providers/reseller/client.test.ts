import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResellerClient, ResellerError, type ResellerClient } from '../../../src/providers/reseller/client.ts';
import { isProductAvailable } from '../../../src/providers/reseller/schemas.ts';
import { isFinalStatus } from '../../../src/store/records/transactions.ts';
import { signBalance, signTransaction } from '../../../src/providers/reseller/sign.ts';
import { resellerDemoAccounts } from '../../../tools/sandbox/reseller.ts';
import { startSandbox, type Sandbox } from '../../../tools/sandbox/server.ts';
import { anyNumber, stringContaining, stringMatching } from '../../helpers/matchers.ts';

const { main, poor, blocked } = resellerDemoAccounts;

let sandbox: Sandbox;
let client: ResellerClient;
let refCounter = 0;
/** A fresh ref_id per purchase, as the bot mints them. */
const newRef = () => `01JTESTREF${String(++refCounter).padStart(6, '0')}`;

beforeAll(async () => {
  // Settle on the second status check only, so nothing depends on wall-clock time.
  sandbox = await startSandbox({ reseller: { settleAfterChecks: 2 } });
  client = createResellerClient({ baseURL: sandbox.urls.reseller, apiId: main.apiId, apiKey: main.apiKey, retryDelayMs: 10 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.received.length = 0;
  sandbox.clearFaults();
});

const requestsTo = (path: string) => sandbox.received.filter((r) => r.service === 'reseller' && r.path === path);
const clientFor = (account: { apiId: string; apiKey: string }, timeoutMs?: number) =>
  createResellerClient({ baseURL: sandbox.urls.reseller, apiId: account.apiId, apiKey: account.apiKey, timeoutMs, retryDelayMs: 10 });

/** Runs `action`, expecting a ResellerError, and returns it. */
async function failure(action: Promise<unknown>): Promise<ResellerError> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResellerError);
  return error as ResellerError;
}

describe('balance()', () => {
  it('returns the integer balance, sending api_id and a variant-A sign as JSON', async () => {
    const balance = await client.balance();
    expect(balance).toBe(sandbox.reseller.balanceOf(main.apiId));
    const [request] = requestsTo('/cek-saldo');
    expect(request).toMatchObject({ method: 'POST', contentType: 'application/json' });
    expect(request!.body).toEqual({ api_id: main.apiId, sign: signBalance(main.apiId, main.apiKey) });
    expect(request!.rawBody).not.toContain(main.apiKey);
  });

  it('trims pasted credentials', async () => {
    const pasted = createResellerClient({ baseURL: sandbox.urls.reseller, apiId: ` ${main.apiId}\n`, apiKey: `${main.apiKey} ` });
    await expect(pasted.balance()).resolves.toBe(sandbox.reseller.balanceOf(main.apiId));
  });

  it('maps a wrong key to credentials with the provider message', async () => {
    const error = await failure(clientFor({ apiId: main.apiId, apiKey: 'not-the-key' }).balance());
    expect(error).toMatchObject({
      kind: 'credentials',
      httpStatus: 401,
      providerMessage: 'Signature tidak valid',
      endpoint: '/cek-saldo',
      service: 'reseller',
    });
  });

  it('maps 403 to ip_blocked', async () => {
    const error = await failure(clientFor(blocked).balance());
    expect(error).toMatchObject({ kind: 'ip_blocked', httpStatus: 403, providerMessage: 'IP Blocked' });
  });

  it('retries after a 5xx and succeeds', async () => {
    sandbox.inject({ service: 'reseller', path: '/cek-saldo', fault: { kind: 'status', status: 502 } });
    await expect(client.balance()).resolves.toBe(sandbox.reseller.balanceOf(main.apiId));
    expect(requestsTo('/cek-saldo')).toHaveLength(2);
  });

  it('reports a body that breaks the schema as malformed, naming the endpoint', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/cek-saldo',
      fault: { kind: 'status', status: 200, body: { data: { balance: '1.000.000' } } },
    });
    const error = await failure(client.balance());
    expect(error.kind).toBe('malformed');
    expect(error.endpoint).toBe('/cek-saldo');
    expect(error.message).toContain('/cek-saldo');
    expect(String((error.cause as Error).message)).toContain('data.balance');
  });

  it('reads a 200 carrying an error as a rejection', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/cek-saldo',
      fault: { kind: 'status', status: 200, body: { error: 'Akun sedang dibekukan' } },
    });
    const error = await failure(client.balance());
    expect(error).toMatchObject({ kind: 'rejected', providerMessage: 'Akun sedang dibekukan' });
  });
});

describe('priceList()', () => {
  it('returns every product with integer prices, keeping statuses verbatim', async () => {
    const products = await client.priceList();
    expect(products.length).toBeGreaterThanOrEqual(100);
    expect(products.find((p) => p.code === 'TSEL10')).toEqual({
      product_name: 'Telkomsel 10.000',
      code: 'TSEL10',
      price: anyNumber(),
      status: 'active',
    });
    for (const product of products) expect(Number.isInteger(product.price)).toBe(true);
    const unavailable = products.filter((p) => !isProductAvailable(p));
    expect(new Set(unavailable.map((p) => p.status))).toEqual(new Set(['gangguan', 'kosong', 'nonaktif']));
    for (const code of ['ISAT25', 'XLD5GB', 'PLN20', 'ML86', 'FF70', 'PUBG60', 'GI60', 'DANA10', 'OVO10', 'GOPAY10']) {
      expect(products.some((p) => p.code === code)).toBe(true);
    }
  });

  it('maps a wrong key to credentials', async () => {
    const error = await failure(clientFor({ apiId: main.apiId, apiKey: 'nope' }).priceList());
    expect(error).toMatchObject({ kind: 'credentials', endpoint: '/price-list' });
  });

  it('reports a body that is not JSON as malformed, naming the endpoint', async () => {
    sandbox.inject({ service: 'reseller', path: '/price-list', fault: { kind: 'malformed' } });
    const error = await failure(client.priceList());
    expect(error).toMatchObject({ kind: 'malformed', endpoint: '/price-list' });
    expect(error.message).toMatch(/^reseller \/price-list: /);
  });
});

describe('createTransaction()', () => {
  it('creates a Pending transaction with a trx_id, debiting the price once', async () => {
    const before = sandbox.reseller.balanceOf(main.apiId);
    const refId = newRef();
    const result = await client.createTransaction({ refId, code: 'TSEL10', target: '081234567890' });
    expect(result).toEqual({ status: 'Pending', trxId: stringMatching(/^TRX\d{14}$/) });
    expect(isFinalStatus(result.status)).toBe(false);
    const price = sandbox.reseller.products().find((p) => p.code === 'TSEL10')!.price;
    expect(sandbox.reseller.balanceOf(main.apiId)).toBe(before - price);
    expect(requestsTo('/transaction')[0]!.body).toEqual({
      api_id: main.apiId,
      sign: signTransaction(main.apiId, main.apiKey, refId),
      ref_id: refId,
      code: 'TSEL10',
      target: '081234567890',
    });
  });

  it('maps 402 to insufficient_balance', async () => {
    const error = await failure(clientFor(poor).createTransaction({ refId: newRef(), code: 'TSEL25', target: '081234567890' }));
    expect(error).toMatchObject({
      kind: 'insufficient_balance',
      httpStatus: 402,
      providerMessage: 'Saldo tidak mencukupi',
      endpoint: '/transaction',
    });
  });

  it('maps 403 to ip_blocked', async () => {
    const error = await failure(clientFor(blocked).createTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' }));
    expect(error).toMatchObject({ kind: 'ip_blocked', httpStatus: 403 });
  });

  it('maps a wrong key to credentials', async () => {
    const error = await failure(
      clientFor({ apiId: main.apiId, apiKey: 'nope' }).createTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' }),
    );
    expect(error).toMatchObject({ kind: 'credentials', httpStatus: 401, providerMessage: 'Signature tidak valid' });
  });

  it('maps an unknown product code to not_found with the provider message', async () => {
    const error = await failure(client.createTransaction({ refId: newRef(), code: 'NOPE99', target: '081234567890' }));
    expect(error).toMatchObject({ kind: 'not_found', httpStatus: 404, providerMessage: 'Produk tidak ditemukan' });
  });

  it('maps an unavailable product to rejected with the provider message', async () => {
    const error = await failure(client.createTransaction({ refId: newRef(), code: 'TSEL150', target: '081234567890' }));
    expect(error.kind).toBe('rejected');
    expect(error.httpStatus).toBe(400);
    expect(error.providerMessage).toMatch(/tidak tersedia.*gangguan/);
  });

  it('maps a reused ref_id with another target to rejected', async () => {
    const refId = newRef();
    await client.createTransaction({ refId, code: 'TSEL5', target: '081234567890' });
    const error = await failure(client.createTransaction({ refId, code: 'TSEL5', target: '081299999990' }));
    expect(error).toMatchObject({ kind: 'rejected', httpStatus: 400, providerMessage: stringContaining('ref_id') });
  });

  it('reads a 200 with success:false as a rejection, not a success', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      fault: { kind: 'status', status: 200, body: { success: false, message: 'Nomor tujuan tidak valid' } },
    });
    const error = await failure(client.createTransaction({ refId: newRef(), code: 'TSEL10', target: '0812' }));
    expect(error).toMatchObject({ kind: 'rejected', httpStatus: 200, providerMessage: 'Nomor tujuan tidak valid' });
  });

  it('on timeout reports unknown_outcome, while the transaction does exist; the same body then reconciles it', async () => {
    const impatient = clientFor(main, 300);
    const before = sandbox.reseller.balanceOf(main.apiId);
    const refId = newRef();
    const request = { refId, code: 'XLD5GB', target: '081811112222' };
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'timeout' } });

    const error = await failure(impatient.createTransaction(request));
    expect(error).toMatchObject({ kind: 'unknown_outcome', endpoint: '/transaction' });
    expect(requestsTo('/transaction')).toHaveLength(1);
    const [stored] = sandbox.reseller.transactions().filter((tx) => tx.refId === refId);
    expect(stored).toMatchObject({ status: 'Pending', code: 'XLD5GB', target: '081811112222' });

    const checked = await client.checkTransaction(request);
    expect(checked).toMatchObject({ status: 'Pending', trxId: stored!.trxId });
    expect(sandbox.reseller.transactions().filter((tx) => tx.refId === refId)).toHaveLength(1);
    expect(sandbox.reseller.balanceOf(main.apiId)).toBe(before - stored!.price);
  });

  it('does not retry after a 5xx, reporting unknown_outcome', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      times: Infinity,
      fault: { kind: 'status', status: 503, body: { message: 'Service Unavailable' } },
    });
    const error = await failure(client.createTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' }));
    expect(error).toMatchObject({ kind: 'unknown_outcome', httpStatus: 503 });
    expect(requestsTo('/transaction')).toHaveLength(1);
  });

  it('reports a reset connection as unknown_outcome, without retrying', async () => {
    const refId = newRef();
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'reset' } });
    const error = await failure(client.createTransaction({ refId, code: 'TSEL10', target: '081234567890' }));
    expect(error.kind).toBe('unknown_outcome');
    expect(requestsTo('/transaction')).toHaveLength(1);
    expect(sandbox.reseller.transactions().some((tx) => tx.refId === refId)).toBe(true);
  });

  it('reports a create answer without a status as malformed', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      fault: { kind: 'status', status: 200, body: { success: true, trx_id: 'T1', sn: '' } },
    });
    const error = await failure(client.createTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' }));
    expect(error).toMatchObject({ kind: 'malformed', endpoint: '/transaction' });
  });

  it('reads a final status straight from the create answer', async () => {
    sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      fault: { kind: 'status', status: 200, body: { success: true, trx_id: 98765, status: 'Sukses', sn: '12345678901234567890' } },
    });
    const result = await client.createTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' });
    expect(result).toEqual({ status: 'Sukses', trxId: '98765', sn: '12345678901234567890' });
  });
});

describe('checkTransaction()', () => {
  it('follows a transaction to Sukses with an SN, without a second debit', async () => {
    const request = { refId: newRef(), code: 'ML86', target: '12345678' };
    const created = await client.createTransaction(request);
    const afterCreate = sandbox.reseller.balanceOf(main.apiId);

    const first = await client.checkTransaction(request);
    expect(first).toEqual({ status: 'Pending', trxId: created.trxId });
    const second = await client.checkTransaction(request);
    expect(second).toEqual({ status: 'Sukses', trxId: created.trxId, sn: stringMatching(/^\d{20}$/) });
    expect(isFinalStatus(second.status)).toBe(true);
    expect(sandbox.reseller.balanceOf(main.apiId)).toBe(afterCreate);
  });

  it('reports Gagal and the price comes back', async () => {
    const before = sandbox.reseller.balanceOf(main.apiId);
    const request = { refId: newRef(), code: 'TSEL20', target: '081200000000' };
    await client.createTransaction(request);
    await client.checkTransaction(request);
    await expect(client.checkTransaction(request)).resolves.toMatchObject({ status: 'Gagal' });
    expect(sandbox.reseller.balanceOf(main.apiId)).toBe(before);
  });

  it('accepts the bare { status } of the spec and keeps unknown statuses verbatim', async () => {
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'status', status: 200, body: { status: 'Proses' } } });
    const result = await client.checkTransaction({ refId: newRef(), code: 'TSEL10', target: '081234567890' });
    expect(result).toEqual({ status: 'Proses' });
    expect(isFinalStatus(result.status)).toBe(false);
  });

  it('retries after a 5xx (a status check is safe to repeat)', async () => {
    const request = { refId: newRef(), code: 'TSEL10', target: '081234567890' };
    await client.createTransaction(request);
    sandbox.received.length = 0;
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'status', status: 500 } });
    await expect(client.checkTransaction(request)).resolves.toMatchObject({ status: 'Pending' });
    expect(requestsTo('/transaction')).toHaveLength(2);
  });
});

describe('secrets', () => {
  it('never appear in an error: not in its message, its string form, its JSON or its inspection', async () => {
    const refId = newRef();
    const secrets = [main.apiKey, signBalance(main.apiId, main.apiKey), signTransaction(main.apiId, main.apiKey, refId)];
    // A provider echoing back what it received: the key and the sign of that very request.
    const echoA = `sign=${secrets[1]} key=${main.apiKey}`;
    const echoB = `key=${main.apiKey} SIGN=${secrets[2]!.toUpperCase()}`;
    const impatient = clientFor(main, 200);
    const transaction = { refId, code: 'TSEL10', target: '081234567890' };
    const errors: ResellerError[] = [];

    sandbox.inject({ service: 'reseller', path: '/cek-saldo', fault: { kind: 'status', status: 401, body: { error: echoA } } });
    errors.push(await failure(client.balance()));
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'status', status: 500, body: { message: echoB } } });
    errors.push(await failure(client.createTransaction(transaction)));
    sandbox.inject({
      service: 'reseller',
      path: '/transaction',
      fault: { kind: 'status', status: 400, body: { success: false, message: echoB } },
    });
    errors.push(await failure(client.createTransaction(transaction)));
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'timeout-before' } });
    errors.push(await failure(impatient.createTransaction(transaction)));
    sandbox.inject({ service: 'reseller', path: '/transaction', fault: { kind: 'reset', afterHandling: false } });
    errors.push(await failure(client.createTransaction(transaction)));
    sandbox.inject({ service: 'reseller', path: '/price-list', fault: { kind: 'malformed', raw: `<html>${echoA}</html>` } });
    errors.push(await failure(client.priceList()));

    expect(errors.map((e) => e.kind)).toEqual([
      'credentials',
      'unknown_outcome',
      'rejected',
      'unknown_outcome',
      'unknown_outcome',
      'malformed',
    ]);
    expect(errors[0]!.providerMessage).toBe('sign=*** key=***');
    expect(errors[2]!.providerMessage).toBe('key=*** SIGN=***');
    for (const error of errors) {
      const texts = [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 }), error.stack ?? ''];
      for (const text of texts) {
        for (const secret of secrets) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
      }
    }
  });
});
