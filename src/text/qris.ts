/**
 * QRIS payment strings (the EMVCo merchant-presented QR payload a shop gives as `payment_code`):
 * recognising one, reading what the payer should check (merchant, city, amount), and drawing its
 * QR code as a PNG here, so the picture never depends on the shop's `qr_url` being reachable.
 */
/** What a QRIS payload says about the payment. */
export interface QrisInfo {
  /** Merchant name (tag 59). */
  merchant?: string;
  /** Merchant city (tag 60). */
  city?: string;
  /** Transaction amount in rupiah (tag 54), for a dynamic QR. */
  amount?: number;
}

/** The top-level fields of an EMVCo payload (`tag`, two-digit length, value …), or undefined when it is not one. */
function readTlv(payload: string): Map<string, string> | undefined {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const tag = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(tag) || !/^\d{2}$/.test(payload.slice(at + 2, at + 4)) || at + 4 + length > payload.length) return undefined;
    fields.set(tag, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/**
 * The QRIS payload's merchant, city and amount, or undefined when `code` is not a QRIS / EMVCo
 * QR payload (a virtual-account number, a payment code, an empty string). A QRIS payload starts
 * with format indicator `000201` and ends with its CRC field (tag 63, four characters).
 */
export function readQris(code: string): QrisInfo | undefined {
  const payload = code.trim();
  if (!payload.startsWith('000201')) return undefined;
  const fields = readTlv(payload);
  if (!fields || fields.get('63')?.length !== 4 || !payload.slice(-8).startsWith('6304')) return undefined;
  const info: QrisInfo = {};
  const merchant = fields.get('59')?.trim();
  const city = fields.get('60')?.trim();
  const amount = Number(fields.get('54'));
  if (merchant) info.merchant = merchant;
  if (city) info.city = city;
  if (fields.has('54') && Number.isFinite(amount) && amount > 0) info.amount = amount;
  return info;
}

/**
 * The QR code of `text` as a PNG (8 px per module with a 4-module quiet zone: about 420 px square
 * for a QRIS payload), drawn locally. The same text always gives the same picture. Rejects when
 * the text does not fit in a QR code.
 */
export async function renderQrPng(text: string): Promise<Buffer> {
  // Loaded on the first QR code: start-up does not need it.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toBuffer(text.trim(), { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
}
