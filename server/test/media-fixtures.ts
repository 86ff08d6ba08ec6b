/**
 * The smallest byte strings that are what they claim to be (the first bytes file-type reads), for provider fakes'
 * media: received files are kept under the type their content shows (modules/files/sniff.ts).
 */
const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

export const MEDIA = {
  jpg: bytes([0xff, 0xd8, 0xff, 0xe0, 4, 4]),
  pdf: bytes('%PDF-1.4\n'),
  /** A PNG signature and its IHDR chunk (file-type reads the first chunk). */
  png: bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
    'IHDR',
    [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0],
  ),
  /** An Ogg page whose first packet is an Opus head (a voice message). */
  ogg: bytes('OggS', new Array(24).fill(0), 'OpusHead', [1, 1]),
  mp4: bytes([0, 0, 0, 0x18], 'ftypisom', new Array(12).fill(0)),
  webp: bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '),
};
