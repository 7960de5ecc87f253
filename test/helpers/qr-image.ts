/**
 * Reads a QR code back out of a PNG, so a test can check that a picture the bot sent shows the QR
 * of a given text: the PNG is decoded (8-bit greyscale / RGB / RGBA, non-interlaced, as QR
 * renderers write them), the dark square of the symbol is found, each module is sampled at its
 * centre and the grid is compared with the QR matrix the `qrcode` package builds for the text at
 * each error-correction level. Independent of the renderer's size, margin and colours.
 */
import { inflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import type { TestWorld } from './app.ts';
import type { EmulatedMessage } from '../../tools/playground/bot-api.ts';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** True when `bytes` start with the PNG signature. */
export function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(pngSignature);
}

/** Width and height from a PNG's IHDR chunk (the first chunk, right after the signature). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!isPng(png) || png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG with an IHDR chunk first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Decodes a PNG into a dark/light test per pixel. */
function decodePng(bytes: Buffer): { width: number; height: number; dark: (x: number, y: number) => boolean } {
  if (!isPng(bytes)) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour ?? -1] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour ${colour})`);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const value = raw[y * (stride + 1) + 1 + i] ?? 0;
      const left = i >= channels ? (pixels[y * stride + i - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0;
      const upLeft = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] ?? 0) : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = a <= b && a <= c ? left : b <= c ? up : upLeft;
      }
      pixels[y * stride + i] = (value + predictor) & 0xff;
    }
  }
  const dark = (x: number, y: number) => {
    const at = y * stride + x * channels;
    const grey = channels >= 3 ? ((pixels[at] ?? 0) + (pixels[at + 1] ?? 0) + (pixels[at + 2] ?? 0)) / 3 : (pixels[at] ?? 0);
    const alpha = channels === 4 ? (pixels[at + 3] ?? 255) : channels === 2 ? (pixels[at + 1] ?? 255) : 255;
    return alpha > 127 && grey < 128;
  };
  return { width, height, dark };
}

/** True when `png` shows the QR code of `text` (at any error-correction level). */
export function pngShowsQrOf(png: Buffer, text: string): boolean {
  const { width, height, dark } = decodePng(png);
  // The symbol is the square from the first to the last dark pixel (finder patterns sit in three corners).
  let [minX, minY, maxX] = [width, height, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (dark(x, y)) [minX, minY, maxX] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x)];
  return (['L', 'M', 'Q', 'H'] as const).some((level) => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: level });
    const scale = (maxX - minX + 1) / modules.size;
    for (let row = 0; row < modules.size; row++)
      for (let col = 0; col < modules.size; col++) {
        const sampled = dark(Math.floor(minX + (col + 0.5) * scale), Math.floor(minY + (row + 0.5) * scale));
        if (sampled !== Boolean(modules.data[row * modules.size + col])) return false;
      }
    return true;
  });
}

/** The bytes of the photo of `message`, as the playground's chat page loads them. */
export async function photoBytes(world: TestWorld, message: EmulatedMessage): Promise<Buffer> {
  const fileId = message.message.photo?.at(-1)?.file_id;
  if (fileId === undefined) throw new Error(`message ${message.messageId} has no photo`);
  const response = await fetch(`${world.telegram.url}/playground/file/${encodeURIComponent(fileId)}`);
  if (!response.ok) throw new Error(`the chat page cannot load photo ${fileId}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
