// Drawing helpers for scripts/make-demo-media.ts: SVG shapes as strings, a seeded generator and the demo's palette.
// No <text>: words are drawn as rounded bars, so the pictures never depend on the fonts installed.

/** mulberry32: a small seeded generator, so scattered shapes are the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const n = (v: number) => String(Math.round(v * 10) / 10);
export type Attrs = Record<string, string | number | undefined>;
const attrs = (a: Attrs = {}) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === 'number' ? n(v) : v}"`)
    .join('');
export const rect = (x: number, y: number, w: number, h: number, fill: string, r = 0, a: Attrs = {}) =>
  `<rect${attrs({ x, y, width: w, height: h, rx: r || undefined, fill, ...a })}/>`;
export const circle = (cx: number, cy: number, r: number, fill: string, a: Attrs = {}) => `<circle${attrs({ cx, cy, r, fill, ...a })}/>`;
export const ellipse = (cx: number, cy: number, rx: number, ry: number, fill: string, a: Attrs = {}) => `<ellipse${attrs({ cx, cy, rx, ry, fill, ...a })}/>`;
export const path = (d: string, fill: string, a: Attrs = {}) => `<path${attrs({ d, fill, ...a })}/>`;
export const stroke = (d: string, colour: string, width: number, a: Attrs = {}) =>
  path(d, 'none', { stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', ...a });
export const group = (transform: string, body: string, a: Attrs = {}) => `<g${attrs({ transform, ...a })}>${body}</g>`;
export const svg = (width: number, height: number, body: string, defs = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
  (defs ? `<defs>${defs}</defs>` : '') +
  body +
  '</svg>';

/** Lines of "text" drawn as rounded bars: `widths` are fractions of `w`. */
export function textLines(x: number, y: number, w: number, widths: number[], colour: string, height = 14, gap = 26): string {
  return widths.map((f, i) => rect(x, y + i * gap, w * f, height, colour, height / 2)).join('');
}

/** A check mark in a disc. */
export const checkBadge = (cx: number, cy: number, r: number, disc: string, mark: string) =>
  circle(cx, cy, r, disc) +
  stroke(`M${n(cx - r * 0.45)} ${n(cy + r * 0.02)} L${n(cx - r * 0.1)} ${n(cy + r * 0.35)} L${n(cx + r * 0.48)} ${n(cy - r * 0.35)}`, mark, r * 0.22);
/** A cross in a disc. */
export const crossBadge = (cx: number, cy: number, r: number, disc: string, mark: string) =>
  circle(cx, cy, r, disc) +
  stroke(
    `M${n(cx - r * 0.35)} ${n(cy - r * 0.35)} L${n(cx + r * 0.35)} ${n(cy + r * 0.35)} M${n(cx + r * 0.35)} ${n(cy - r * 0.35)} L${n(cx - r * 0.35)} ${n(cy + r * 0.35)}`,
    mark,
    r * 0.22,
  );
/** A document icon with a folded corner and lines. */
export function doc(x: number, y: number, w: number, h: number, paper: string, ink: string, lines = 4): string {
  const fold = w * 0.28;
  return (
    path(`M${n(x)} ${n(y)} H${n(x + w - fold)} L${n(x + w)} ${n(y + fold)} V${n(y + h)} H${n(x)} Z`, paper) +
    path(`M${n(x + w - fold)} ${n(y)} V${n(y + fold)} H${n(x + w)} Z`, ink, { opacity: 0.25 }) +
    textLines(x + w * 0.16, y + h * 0.38, w * 0.68, [1, 0.8, 1, 0.6].slice(0, lines), ink, h * 0.06, h * 0.14)
  );
}
/** A simple person: head and shoulders. */
export const person = (cx: number, cy: number, s: number, fill: string) =>
  circle(cx, cy - s * 0.35, s * 0.28, fill) +
  path(
    `M${n(cx - s * 0.5)} ${n(cy + s * 0.55)} Q${n(cx - s * 0.5)} ${n(cy + s * 0.02)} ${n(cx)} ${n(cy + s * 0.02)} Q${n(cx + s * 0.5)} ${n(cy + s * 0.02)} ${n(cx + s * 0.5)} ${n(cy + s * 0.55)} Z`,
    fill,
  );

// A warm palette shared by the pictures.
export const C = {
  sand: '#F3DFC4',
  cream: '#FBF3E6',
  paper: '#FFFDF8',
  terracotta: '#D9825B',
  rust: '#B85C3C',
  ochre: '#E3B04B',
  gold: '#D9A441',
  teal: '#2E5E64',
  tealDark: '#1F4448',
  tealLight: '#6FA3A0',
  sage: '#DDE6D3',
  navy: '#1E1B3A',
  ink: '#3B2F2A',
  grey: '#C9BFB2',
  green: '#5E9E6E',
  coral: '#E0685A',
};
