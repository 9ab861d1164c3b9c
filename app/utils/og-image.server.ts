// The `og:image` of each page type: a 1200×630 PNG card (who the site is about, their headline, the kind
// of page, the site's address), drawn here with a 5×7 pixel font and encoded with node:zlib, so it needs
// no image library and no browser. Made once per build and page type (app/routes/og.$type.tsx caches it).
import { crc32, deflateSync } from 'node:zlib';
import { ogPageLooks, type OgPageType } from './og-pages.ts';

type Rgb = readonly [number, number, number];
const OG_WIDTH = 1200;
const OG_HEIGHT = 630;

// 5×7 glyphs, one string of 35 cells per character ('#' = ink), upper case only.
const glyphRows: Record<string, string> = {
  A: '.###.#...##...#######...##...##...#',
  B: '####.#...##...#####.#...##...#####.',
  C: '.###.#...##....#....#....#...#.###.',
  D: '####.#...##...##...##...##...#####.',
  E: '######....#....####.#....#....#####',
  F: '######....#....####.#....#....#....',
  G: '.###.#...##....#.####...##...#.####',
  H: '#...##...##...#######...##...##...#',
  I: '.###...#....#....#....#....#...###.',
  J: '..###...#....#....#....#.#..#..##..',
  K: '#...##..#.#.#..##...#.#..#..#.#...#',
  L: '#....#....#....#....#....#....#####',
  M: '#...###.###.#.##.#.##...##...##...#',
  N: '#...##...###..##.#.##..###...##...#',
  O: '.###.#...##...##...##...##...#.###.',
  P: '####.#...##...#####.#....#....#....',
  Q: '.###.#...##...##...##.#.##..#..##.#',
  R: '####.#...##...#####.#.#..#..#.#...#',
  S: '.#####....#.....###.....#....#####.',
  T: '#####..#....#....#....#....#....#..',
  U: '#...##...##...##...##...##...#.###.',
  V: '#...##...##...##...##...#.#.#...#..',
  W: '#...##...##...##.#.##.#.##.#.#.#.#.',
  X: '#...##...#.#.#...#...#.#.#...##...#',
  Y: '#...##...#.#.#...#....#....#....#..',
  Z: '#####....#...#...#...#...#....#####',
  '0': '.###.#...##..###.#.###..##...#.###.',
  '1': '..#...##....#....#....#....#...###.',
  '2': '.###.#...#....#...#...#...#...#####',
  '3': '#####...#...#.....#.....##...#.###.',
  '4': '...#...##..#.#.#..#.#####...#....#.',
  '5': '######....####.....#....##...#.###.',
  '6': '..##..#...#....####.#...##...#.###.',
  '7': '#####....#...#...#...#....#....#...',
  '8': '.###.#...##...#.###.#...##...#.###.',
  '9': '.###.#...##...#.####....#...#..##..',
  ' ': '...................................',
  '.': '..........................##...##..',
  ',': '.....................##....#...#...',
  ':': '......##...##........##...##.......',
  ';': '......##...##........##....#...#...',
  '-': '...............#####...............',
  "'": '..#....#...#.......................',
  '"': '.#.#..#.#..........................',
  '&': '.##..#..#.#.#...#...#.#.##..#..##.#',
  '(': '...#...#...#....#....#.....#.....#.',
  ')': '.#.....#.....#....#....#...#...#...',
  '/': '.........#...#...#...#...#.........',
  '!': '..#....#....#....#....#.........#..',
  '?': '.###.#...#....#...#...#.........#..',
  '·': '.................#.................',
  '+': '.......#....#..#####..#....#.......',
  '#': '.#.#..#.#.#####.#.#.#####.#.#..#.#.',
  '%': '##...##..#...#...#...#...#..##...##',
  '@': '.###.#...##.####.#.##.####.....###.',
};
const glyphs = new Map(Object.entries(glyphRows));

/** Text the font can draw: accents dropped, typographic dashes and quotes made plain, upper case. */
function drawable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[–—‐]/g, '-')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .toUpperCase()
    .replace(/./gu, (ch) => (glyphs.has(ch) ? ch : '?'));
}

/** Words broken into lines of at most `width` characters (a longer word is cut). */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (next.length <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word.slice(0, width);
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, width - 3)}...`;
    return kept;
  }
  return lines;
}

class Canvas {
  readonly pixels: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = Buffer.alloc(width * height * 3);
    this.rect(0, 0, width, height, background);
  }
  rect(x: number, y: number, w: number, h: number, [r, g, b]: Rgb) {
    for (let row = Math.max(0, y); row < Math.min(this.height, y + h); row++)
      for (let col = Math.max(0, x); col < Math.min(this.width, x + w); col++) {
        const i = (row * this.width + col) * 3;
        this.pixels[i] = r;
        this.pixels[i + 1] = g;
        this.pixels[i + 2] = b;
      }
  }
  /** Draws one line of text at a scale (a cell is `scale` pixels); returns its width. */
  text(x: number, y: number, text: string, scale: number, colour: Rgb): number {
    let pen = x;
    for (const ch of drawable(text)) {
      const cells = glyphs.get(ch)!;
      for (let i = 0; i < 35; i++) if (cells[i] === '#') this.rect(pen + (i % 5) * scale, y + Math.floor(i / 5) * scale, scale, scale, colour);
      pen += 6 * scale;
    }
    return pen - x;
  }
}

/** A PNG of RGB pixels (8 bits per channel, no filter). */
function png(width: number, height: number, rgb: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter method, no interlace
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row++) rgb.copy(raw, row * (stride + 1) + 1, row * stride, (row + 1) * stride);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The card of a page type: the kind of page, the subject's name and headline, the site's address. */
export function ogImage(type: OgPageType, card: { name: string; headline: string; site: string }): Buffer {
  const { eyebrow, accent } = ogPageLooks[type];
  const canvas = new Canvas(OG_WIDTH, OG_HEIGHT, [15, 23, 42]);
  const margin = 88;
  canvas.rect(0, 0, 20, OG_HEIGHT, accent);
  canvas.text(margin, 84, eyebrow, 5, accent);
  const nameScale = 12;
  const nameLines = wrap(card.name, Math.floor((OG_WIDTH - 2 * margin) / (6 * nameScale)), 2);
  let y = 170;
  for (const line of nameLines) {
    canvas.text(margin, y, line, nameScale, [248, 250, 252]);
    y += 9 * nameScale;
  }
  y += 16;
  for (const line of wrap(card.headline, Math.floor((OG_WIDTH - 2 * margin) / 30), 4)) {
    canvas.text(margin, y, line, 5, [203, 213, 225]);
    y += 50;
  }
  canvas.rect(margin, OG_HEIGHT - 104, OG_WIDTH - 2 * margin, 4, [51, 65, 85]);
  canvas.text(margin, OG_HEIGHT - 76, card.site, 4, [148, 163, 184]);
  return png(OG_WIDTH, OG_HEIGHT, canvas.pixels);
}
