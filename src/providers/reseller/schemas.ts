/**
 * The reseller top-up API's wire formats (document 1, `reseller-topup-api.md`), parsed at the
 * edge with zod. Extra fields are tolerated everywhere (providers add fields without notice); the
 * fields the spec documents must have the documented types.
 *
 * Transaction answers get a little more tolerance, because a real provider commonly deviates
 * there without changing the meaning: `trx_id` and `sn` may be missing, `null`, empty or numeric
 * while the transaction is Pending, and a status check may carry the creation fields too.
 */
import { z } from 'zod';

/** 200 body of POST /cek-saldo: `{ data: { balance } }`, integer rupiah. */
export const balanceResponseSchema = z.object({
  data: z.object({ balance: z.number().int() }),
});

/** One element of the price list. `status` is kept verbatim: `active` means available. */
export const productSchema = z.object({
  product_name: z.string(),
  /** Sent back as `code` when buying. */
  code: z.string().min(1),
  /** Integer rupiah. */
  price: z.number().int().nonnegative(),
  status: z.string(),
  /**
   * Not in the spec: a provider's own category word ("Pulsa", "Data", "Games"…), kept when a
   * provider sends one (many do) and dropped when it is not a string.
   */
  category: z.string().optional().catch(undefined),
});

/** 200 body of POST /price-list: `{ data: [Product, ...] }`. */
export const priceListResponseSchema = z.object({
  data: z.array(productSchema),
});

/** A product as listed by the provider, with the spec's field names. */
export type Product = z.infer<typeof productSchema>;

/** The one product status the spec shows; every other value means "unavailable", shown verbatim. */
export const activeProductStatus = 'active';

/** True when the product can be bought now (its status is exactly `active`). */
export function isProductAvailable(product: Pick<Product, 'status'>): boolean {
  return product.status === activeProductStatus;
}

/** Transaction status: any non-blank string, surrounding whitespace dropped, otherwise verbatim. */
const statusSchema = z.string().trim().min(1);

/** `trx_id` / `sn`: a string per the spec; absent, `null`, blank or numeric are tolerated (blank reads as absent). */
const optionalText = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined) return undefined;
    const text = String(value).trim();
    return text === '' ? undefined : text;
  });

/**
 * Any 200 answer of POST /transaction: a create's `{ success: true, trx_id, status, sn }` (sn ''
 * while Pending) or a status check's `{ status }`, possibly with the create's fields too (a retried
 * create of a known ref_id is answered as a status check).
 */
export const transactionResponseSchema = z
  .looseObject({
    success: z.literal(true).optional(),
    trx_id: optionalText,
    status: statusSchema,
    sn: optionalText,
  })
  .transform((body): { status: string; trxId?: string; sn?: string } => {
    const result: { status: string; trxId?: string; sn?: string } = { status: body.status };
    if (body.trx_id !== undefined) result.trxId = body.trx_id;
    if (body.sn !== undefined) result.sn = body.sn;
    return result;
  });

/** Where a transaction stands: `status` verbatim (only Sukses and Gagal are final), `trxId` and `sn` once known. */
export type TransactionResult = z.output<typeof transactionResponseSchema>;
