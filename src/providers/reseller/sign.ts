/**
 * Request signatures of the reseller top-up API (document 1, `reseller-topup-api.md`).
 *
 * The signature is the MD5 digest of the plain concatenation (no separator) of the values, written
 * as lowercase hex (DESIGN.md decides the encoding the spec leaves open). The api key itself is
 * never sent: it is only an input here.
 */
import { createHash } from 'node:crypto';

function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/**
 * Variant A, for `/cek-saldo` and `/price-list`: `md5(api_id + api_key)`.
 * Both credentials are trimmed first, because pasted credentials often carry spaces or a newline;
 * send the trimmed `api_id` in the body too.
 */
export function signBalance(apiId: string, apiKey: string): string {
  return md5Hex(apiId.trim() + apiKey.trim());
}

/**
 * Variant B, for `/transaction` (create and status check alike): `md5(api_id + api_key + ref_id)`.
 * The credentials are trimmed; `refId` is used exactly as given, since it must match the `ref_id`
 * sent in the same body.
 */
export function signTransaction(apiId: string, apiKey: string, refId: string): string {
  return md5Hex(apiId.trim() + apiKey.trim() + refId);
}
