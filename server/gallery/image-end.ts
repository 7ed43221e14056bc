/**
 * Where an image's own bytes end, read from its structure: PNG at its IEND chunk, JPEG at the end-of-image
 * marker after the last scan, GIF at its trailer, WebP at the length its RIFF header declares. Whatever follows
 * (an HTML page appended to make a polyglot, a phone's trailer, a second file) is not the image. Undefined when
 * the structure is broken before its end: a truncated file.
 */
export function imageEnd(bytes: Uint8Array, type: 'png' | 'jpg' | 'gif' | 'webp'): number | undefined {
  switch (type) {
    case 'png':
      return pngEnd(bytes);
    case 'jpg':
      return jpegEnd(bytes);
    case 'gif':
      return gifEnd(bytes);
    case 'webp':
      return webpEnd(bytes);
  }
}

const u32be = (b: Uint8Array, at: number) =>
  (((b[at] ?? 0) << 24) >>> 0) + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);

function pngEnd(b: Uint8Array): number | undefined {
  // Signature (8), then chunks: length (4), type (4), data, CRC (4).
  for (let at = 8; at + 12 <= b.length; ) {
    const length = u32be(b, at);
    const type = String.fromCharCode(b[at + 4] ?? 0, b[at + 5] ?? 0, b[at + 6] ?? 0, b[at + 7] ?? 0);
    const next = at + 12 + length;
    if (type === 'IEND') return next <= b.length ? next : undefined;
    at = next;
  }
  return undefined;
}

function jpegEnd(b: Uint8Array): number | undefined {
  let at = 2; // SOI
  while (at + 2 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] as number;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // standalone markers carry no length
      continue;
    }
    if (at + 4 > b.length) return undefined;
    const length = ((b[at + 2] as number) << 8) + (b[at + 3] as number);
    at += 2 + length;
    if (marker !== 0xda) continue;
    // Start of scan: entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
    while (at + 1 < b.length) {
      if (b[at] === 0xff) {
        const next = b[at + 1] as number;
        if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7)) break;
      }
      at++;
    }
  }
  return undefined;
}

function gifEnd(b: Uint8Array): number | undefined {
  // Header (6), logical screen descriptor (7), global colour table when its flag is set.
  const flags = b[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  const skipSubBlocks = () => {
    while (at < b.length) {
      const size = b[at] as number;
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) return at + 1; // trailer
    if (block === 0x21) {
      at += 2; // introducer and label
      if (!skipSubBlocks()) return undefined;
    } else if (block === 0x2c) {
      const local = b[at + 9] ?? 0;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0) + 1; // descriptor, colour table, LZW size
      if (!skipSubBlocks()) return undefined;
    } else return undefined;
  }
  return undefined;
}

function webpEnd(b: Uint8Array): number | undefined {
  const size = ((b[4] ?? 0) + ((b[5] ?? 0) << 8) + ((b[6] ?? 0) << 16) + ((b[7] ?? 0) << 24)) >>> 0;
  const end = 8 + size;
  return end <= b.length ? end : undefined;
}
