import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { readQris, renderQrPng } from '../../src/text/qris.ts';
import { isPng, pngShowsQrOf } from '../helpers/qr-image.ts';

/** A dynamic QRIS payload as the sandbox shop (and real QRIS acquirers) write it: EMVCo TLV with a CRC. */
const payload =
  '00020101021226660014ID.CO.QRIS.WWW01189360091500000000000215ID10200000000010303UMI5204581653033605405104995802ID5916GAMESHOP SANDBOX6007JAKARTA62150511T00000000016304ACA5';

describe('QRIS payment strings', () => {
  it('reads the merchant, city and amount of a QRIS payload', () => {
    expect(readQris(payload)).toEqual({ merchant: 'GAMESHOP SANDBOX', city: 'JAKARTA', amount: 10499 });
    expect(readQris(`  ${payload}\n`)).toEqual({ merchant: 'GAMESHOP SANDBOX', city: 'JAKARTA', amount: 10499 });
  });

  it('does not take a virtual-account number, an empty code or a broken payload for QRIS', () => {
    expect(readQris('7001212345678901')).toBeUndefined();
    expect(readQris('')).toBeUndefined();
    expect(readQris(payload.slice(0, 60))).toBeUndefined();
    expect(readQris('000201010212ZZ')).toBeUndefined();
  });

  it('renders the QR of a text as a PNG, locally', async () => {
    const png = await renderQrPng(payload);
    expect(isPng(png)).toBe(true);
    expect(pngShowsQrOf(png, payload)).toBe(true);
    expect(pngShowsQrOf(png, payload.replace('10499', '10500'))).toBe(false);
    // The checker reads pictures of other renderers' settings too.
    expect(pngShowsQrOf(await QRCode.toBuffer('7001212345678901', { type: 'png', margin: 1, scale: 3 }), '7001212345678901')).toBe(true);
  });
});
