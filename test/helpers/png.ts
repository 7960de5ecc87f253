import { isPng } from './qr-image.ts';

/**
 * Width and height from a PNG's IHDR chunk; throws if the bytes do not start with the PNG
 * signature followed by an IHDR chunk.
 */
export function pngInfo(bytes: Uint8Array): { width: number; height: number } {
  const png = Buffer.from(bytes);
  if (png.length < 24 || !isPng(png)) throw new Error('not a PNG: the signature bytes are missing');
  if (png.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG: the first chunk is not IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
