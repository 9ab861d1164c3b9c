// Draws the demo subject's images (a portrait of the fictional Noa Castellan, covers for featured entries and two
// gallery images for Concierge Copilot) as SVG and encodes them with sharp into content/media/. Everything is drawn
// here: no external assets, no fonts (no SVG <text>, so the output does not depend on the fonts installed), no
// network, no photographs. The output is byte-identical on re-run with the same sharp/libvips: scattered shapes come
// from a seeded generator and no metadata or timestamp is written. See docs/demo-media.md.
//
//   node --import tsx scripts/make-demo-media.ts            # write content/media/ (only files whose bytes changed)
//   node --import tsx scripts/make-demo-media.ts --check    # exit 1 if a file is missing or differs
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { C, checkBadge, circle, crossBadge, doc, ellipse, group, n, path, person, rect, seeded, stroke, svg, textLines } from './demo-media-draw.ts';

const OUT = resolve(process.argv.find((a) => a.startsWith('--out='))?.slice(6) ?? 'content/media');
const CHECK = process.argv.includes('--check');
/** The most one image may weigh, and all of them together. */
const MAX_BYTES = 250 * 1024;
const MAX_TOTAL = 1200 * 1024;

interface Picture {
  name: string;
  width: number;
  height: number;
  format: 'jpeg' | 'webp';
  svg: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The portrait: head and shoulders of the fictional subject, flat shapes, in front of a sun and a tile pattern
// that nods to Lisbon's azulejos.

function portrait(): string {
  const S = 1200;
  const skin = '#D4976F';
  const skinShade = '#B97A58';
  const hair = '#3B2620';
  const tile =
    `<pattern id="tiles" width="150" height="150" patternUnits="userSpaceOnUse">` +
    rect(0, 0, 150, 150, C.sand) +
    path('M75 22 L128 75 L75 128 L22 75 Z', 'none', { stroke: '#EACDA8', 'stroke-width': 6 }) +
    circle(75, 75, 16, '#EACDA8') +
    [0, 150].flatMap((x) => [0, 150].map((y) => circle(x, y, 34, '#EACDA8'))).join('') +
    `</pattern>`;
  const body = [
    rect(0, 0, S, S, 'url(#tiles)'),
    circle(600, 560, 405, C.terracotta),
    circle(600, 560, 405, 'none', { stroke: '#E9A57E', 'stroke-width': 14 }),
    // Hair behind the head: a shoulder-length bob.
    path(
      'M392 560 C372 330 470 248 600 248 C742 248 842 330 812 560 C802 680 826 760 852 808 C782 842 700 830 652 808 L548 808 C500 830 418 842 348 808 C374 760 402 680 392 560 Z',
      hair,
    ),
    // Torso: a teal jacket over a cream top.
    path('M140 1200 C150 1010 262 930 430 896 L600 874 L770 896 C938 930 1050 1010 1060 1200 Z', C.teal),
    path('M478 890 L722 890 L600 1120 Z', C.cream),
    // Neck, darker than the face so the chin casts its shadow.
    path('M538 690 L538 892 Q600 948 662 892 L662 690 Z', skinShade),
    // Lapels.
    path('M430 896 L540 882 L600 1120 L548 1200 L470 1200 L520 1040 L452 990 Z', C.tealDark),
    path('M770 896 L660 882 L600 1120 L652 1200 L730 1200 L680 1040 L748 990 Z', C.tealDark),
    // A small gold pin on the lapel: a planet and its orbit.
    circle(712, 1010, 13, C.ochre),
    ellipse(712, 1010, 30, 10, 'none', { stroke: C.ochre, 'stroke-width': 5, transform: 'rotate(-20 712 1010)' }),
    // Ears and earrings.
    ellipse(426, 566, 30, 46, skinShade),
    ellipse(774, 566, 30, 46, skinShade),
    circle(428, 626, 12, C.ochre),
    circle(772, 626, 12, C.ochre),
    // Face.
    ellipse(600, 540, 178, 222, skin),
    // Hair in front: a side parting and a fringe swept to one side.
    path('M404 540 C392 360 474 282 606 280 C748 280 816 372 798 548 C786 470 762 420 720 392 C660 430 560 440 470 420 C438 450 418 490 404 540 Z', hair),
    path('M606 282 C560 320 520 380 470 420 C520 400 580 372 624 330 Z', '#54362C'),
    // Cheeks.
    circle(508, 626, 36, '#E0846C', { opacity: 0.35 }),
    circle(692, 626, 36, '#E0846C', { opacity: 0.35 }),
    // Brows, eyes, nose and a calm smile.
    stroke('M492 506 Q530 486 572 500', hair, 12),
    stroke('M628 500 Q670 486 708 506', hair, 12),
    ellipse(532, 556, 15, 17, hair),
    ellipse(668, 556, 15, 17, hair),
    circle(537, 550, 4.5, '#FFFFFF', { opacity: 0.8 }),
    circle(673, 550, 4.5, '#FFFFFF', { opacity: 0.8 }),
    stroke('M604 568 Q590 628 612 638', skinShade, 8),
    path('M548 678 Q600 724 652 678 Q600 694 548 678 Z', '#A5473F'),
  ].join('');
  return svg(S, S, body, tile);
}

// ---------------------------------------------------------------------------------------------------------------
// Covers, 1600×900.

const W = 1600;
const H = 900;

/** Concierge Copilot: a hotel's service bell and a multilingual conversation with a cited answer and a hand-off. */
function conciergeCover(): string {
  const bubbles = [
    // guest (left, white), assistant (right, teal, with a source chip), guest, hand-off to staff (amber)
    rect(840, 150, 430, 120, C.paper, 34) + textLines(880, 188, 340, [1, 0.62], C.grey, 16, 34) + path('M870 262 L846 300 L910 268 Z', C.paper),
    rect(960, 310, 520, 180, C.teal, 34) +
      textLines(1000, 348, 430, [1, 0.85, 0.5], '#A9CBC7', 16, 34) +
      rect(1000, 442, 150, 30, C.tealDark, 15) +
      doc(1014, 446, 16, 22, C.paper, C.tealDark, 0) +
      rect(1040, 453, 92, 9, '#A9CBC7', 4.5) +
      path('M1440 482 L1470 520 L1400 488 Z', C.teal),
    rect(840, 540, 360, 100, C.paper, 34) + textLines(880, 578, 270, [1, 0.7], C.grey, 16, 30) + path('M870 632 L846 668 L910 636 Z', C.paper),
    rect(1010, 690, 470, 120, C.ochre, 34) + person(1072, 752, 64, C.rust) + textLines(1124, 728, 320, [1, 0.7], '#F6D99A', 16, 34),
  ].join('');
  // Six dots for six languages, on an orbit around a small globe.
  const langs = ['#D9825B', '#2E5E64', '#E3B04B', '#6FA3A0', '#B85C3C', '#8C6A9E'];
  const globe =
    circle(640, 190, 56, C.tealLight) +
    ellipse(640, 190, 24, 56, 'none', { stroke: C.cream, 'stroke-width': 5 }) +
    stroke('M584 190 H696 M592 162 H688 M592 218 H688', C.cream, 5) +
    ellipse(640, 190, 110, 34, 'none', { stroke: C.rust, 'stroke-width': 4, 'stroke-dasharray': '4 14', transform: 'rotate(-12 640 190)' }) +
    langs
      .map((c, i) => circle(640 + 110 * Math.cos((i * Math.PI) / 3), 190 + 34 * Math.sin((i * Math.PI) / 3), 11, c, { transform: 'rotate(-12 640 190)' }))
      .join('');
  const bell =
    ellipse(420, 720, 300, 34, '#E8CDA8') +
    rect(170, 650, 500, 64, C.tealDark, 18) +
    rect(190, 650, 460, 16, C.teal, 8) +
    path('M200 650 A220 220 0 0 1 640 650 Z', C.gold) +
    path('M250 640 A170 170 0 0 1 330 500', 'none', { stroke: '#F2CE7E', 'stroke-width': 22, 'stroke-linecap': 'round' }) +
    rect(404, 400, 32, 40, C.gold, 6) +
    ellipse(420, 396, 54, 18, C.rust);
  // A room key on the counter, with its tag.
  const key =
    circle(740, 740, 28, 'none', { stroke: C.rust, 'stroke-width': 12 }) +
    rect(766, 732, 130, 16, C.rust, 6) +
    rect(850, 748, 14, 26, C.rust, 3) +
    rect(874, 748, 14, 18, C.rust, 3) +
    stroke('M740 768 L732 796', C.rust, 5) +
    group('rotate(8 730 830)', path('M702 796 H758 V858 L730 876 L702 858 Z', C.ochre) + circle(730, 814, 8, C.cream));
  return svg(W, H, rect(0, 0, W, H, C.sand) + circle(420, 520, 330, C.cream) + globe + bell + key + bubbles);
}

/** ragcheck: a grid of test cases scored pass, fail or refused, and this run's scores beside the last run's. */
function ragcheckCover(): string {
  const random = seeded(34);
  const cards: string[] = [];
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 5; col++) {
      const x = 90 + col * 168;
      const y = 120 + row * 178;
      const roll = random();
      const badge = roll < 0.72 ? checkBadge : roll < 0.86 ? crossBadge : undefined;
      cards.push(rect(x, y, 140, 150, C.paper, 18) + doc(x + 22, y + 24, 56, 74, '#EFE5D6', C.ink, 4) + textLines(x + 22, y + 114, 96, [1], C.grey, 10));
      if (badge === checkBadge) cards.push(checkBadge(x + 112, y + 32, 22, C.green, C.paper));
      else if (badge === crossBadge) cards.push(crossBadge(x + 112, y + 32, 22, C.coral, C.paper));
      // a refusal that was expected: a "no entry" sign
      else cards.push(circle(x + 112, y + 32, 22, C.ochre) + rect(x + 98, y + 28, 28, 8, C.paper, 4));
    }
  }
  // Three metrics, each as last run (light) and this run (dark) bars.
  const chart: string[] = [rect(1000, 120, 510, 660, C.teal, 30), rect(1050, 690, 410, 6, '#A9CBC7', 3)];
  const metrics = [
    [0.62, 0.81, C.ochre],
    [0.7, 0.88, C.terracotta],
    [0.55, 0.74, C.tealLight],
  ] as const;
  metrics.forEach(([before, after, colour], i) => {
    const x = 1080 + i * 135;
    chart.push(rect(x, 690 - 480 * before, 44, 480 * before, '#4F7F82', 8), rect(x + 50, 690 - 480 * after, 44, 480 * after, colour, 8));
  });
  chart.push(textLines(1080, 720, 360, [0.3], '#A9CBC7', 12), textLines(1215, 720, 360, [0.3], '#A9CBC7', 12), textLines(1350, 720, 360, [0.3], '#A9CBC7', 12));
  // A magnifier over one case.
  const lens =
    circle(832, 700, 70, C.cream, { opacity: 0.3 }) +
    circle(832, 700, 70, 'none', { stroke: C.ink, 'stroke-width': 18 }) +
    stroke('M884 752 L940 808', C.ink, 28);
  return svg(W, H, rect(0, 0, W, H, C.sand) + cards.join('') + chart.join('') + lens);
}

/** The clinical notes pilot: scattered notes, pseudonymised, become one short draft that a clinician signs off. */
function clinicalCover(): string {
  const notes = [-14, -6, 3, 11]
    .map((angle, i) => {
      const x = 150 + i * 46;
      const y = 170 + i * 26;
      const random = seeded(100 + i);
      const lines: string[] = [];
      for (let l = 0; l < 12; l++) {
        const w = 200 + random() * 140;
        lines.push(rect(x + 40, y + 60 + l * 36, w, 14, '#B8C4B0', 7));
        // Names and numbers hidden before the model sees them: dark blocks over parts of some lines.
        if (random() < 0.35) lines.push(rect(x + 40 + random() * (w - 80), y + 56 + l * 36, 70, 22, C.tealDark, 5));
      }
      return group(`rotate(${angle} ${x + 200} ${y + 280})`, rect(x, y, 400, 540, C.paper, 16, { stroke: '#C9D3C0', 'stroke-width': 3 }) + lines.join(''));
    })
    .join('');
  // A shield with a lock: the data stays in the organisation's own environment.
  const shield =
    path('M800 300 L880 330 V430 C880 500 840 545 800 565 C760 545 720 500 720 430 V330 Z', C.teal) +
    rect(770, 410, 60, 52, C.cream, 8) +
    path('M780 412 V392 A20 20 0 0 1 820 392 V412', 'none', { stroke: C.cream, 'stroke-width': 10 }) +
    circle(800, 434, 7, C.teal);
  // Flow of dots from the notes to the draft.
  const flow = [0, 1, 2, 3, 4, 5, 6]
    .map((i) => circle(700 + i * 36, 640 - Math.sin(i / 2) * 20, 8 + i * 1.2, C.terracotta, { opacity: 0.35 + i * 0.09 }))
    .join('');
  // The draft summary: fewer lines, a signature and a check.
  const draft =
    rect(1020, 150, 440, 600, C.paper, 18, { stroke: '#C9D3C0', 'stroke-width': 3 }) +
    rect(1020, 150, 440, 70, C.terracotta, 18) +
    rect(1020, 190, 440, 30, C.terracotta) +
    textLines(1070, 270, 340, [1, 0.9, 0.75], '#B8C4B0', 16, 40) +
    textLines(1070, 420, 340, [1, 0.8], '#B8C4B0', 16, 40) +
    rect(1070, 560, 340, 4, C.grey, 2) +
    stroke('M1080 640 C1110 590 1130 660 1160 620 C1180 595 1190 650 1220 625 C1240 610 1250 640 1280 630', C.tealDark, 7) +
    checkBadge(1380, 640, 44, C.green, C.paper);
  return svg(W, H, rect(0, 0, W, H, C.sage) + circle(1240, 450, 360, '#CFDCC3') + notes + flow + shield + draft);
}

/** Head of AI at Orbitale Travel: Lisbon's hills at sunset, with partner hotels linked on orbits around the sun. */
function orbitaleCover(): string {
  const random = seeded(48);
  const houses: string[] = [];
  const hill = (x0: number, x1: number, top: number, base: number, fill: string) =>
    path(`M${x0} ${H} V${base} C${n(x0 + (x1 - x0) * 0.25)} ${top} ${n(x0 + (x1 - x0) * 0.75)} ${top} ${x1} ${base} V${H} Z`, fill);
  const houseRow = (x0: number, x1: number, yAt: (x: number) => number, palette: string[]) => {
    for (let x = x0; x < x1;) {
      const w = 34 + random() * 40;
      const h = 40 + random() * 70;
      const y = yAt(x + w / 2);
      const wall = palette[Math.floor(random() * palette.length)]!;
      houses.push(rect(x, y - h, w, h + 120, wall), path(`M${n(x - 4)} ${n(y - h)} L${n(x + w / 2)} ${n(y - h - 22)} L${n(x + w + 4)} ${n(y - h)} Z`, C.rust));
      for (let wy = y - h + 16; wy < y - 10; wy += 26) for (let wx = x + 8; wx < x + w - 12; wx += 18) houses.push(rect(wx, wy, 9, 14, '#6B4A3A', 2));
      x += w + 2;
    }
  };
  const wallsBack = ['#F4E3C8', '#EFD3B0', '#E7C49B', '#F6EBDA'];
  const wallsFront = ['#F8E9D2', '#F3D6B2', '#F0C9A0', '#FBF3E6', '#E9D9C0'];
  // Hill curves, approximated for the roofline.
  const curve = (x0: number, x1: number, top: number, base: number) => (x: number) => {
    const t = Math.min(1, Math.max(0, (x - x0) / (x1 - x0)));
    return base + (top - base) * 3 * t * (1 - t) * 1.33;
  };
  houseRow(-20, 900, curve(-100, 900, 560, 760), wallsBack);
  const back = houses.splice(0).join('');
  houseRow(600, 1640, curve(600, 1700, 640, 830), wallsFront);
  const front = houses.join('');
  const orbits = [
    [360, 120],
    [560, 190],
    [760, 260],
  ]
    .map(([rx, ry], i) => {
      const dots = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
        const a = (k / 8) * Math.PI * 2 + i * 0.5;
        return circle(800 + rx! * Math.cos(a), 360 + ry! * Math.sin(a), 9 + (k % 3) * 3, k % 2 ? C.paper : C.teal);
      });
      return ellipse(800, 360, rx!, ry!, 'none', { stroke: C.paper, 'stroke-width': 3, opacity: 0.7 }) + dots.join('');
    })
    .join('');
  const sky = rect(0, 0, W, H, '#F4C99B') + rect(0, 0, W, 260, '#F2B98A') + rect(0, 0, W, 120, '#EDA57C');
  const sun = circle(800, 360, 130, C.ochre) + circle(800, 360, 92, '#F2CE7E');
  return svg(
    W,
    H,
    sky +
      sun +
      group('rotate(-8 800 360)', orbits) +
      hill(-100, 900, 520, 760, '#C98A67') +
      back +
      rect(0, 800, W, 100, C.teal) +
      stroke('M0 830 H1600', C.tealLight, 4, { 'stroke-dasharray': '60 40' }) +
      hill(600, 1700, 600, 830, '#B8724F') +
      front,
  );
}

/** Kansai Nights: a narrow street after dark with lanterns and lit windows, and four riso-printed issues of the zine. */
function kansaiCover(): string {
  const random = seeded(2011);
  const buildings: string[] = [];
  for (let x = -20; x < W;) {
    const w = 90 + random() * 110;
    const h = 260 + random() * 360;
    const shade = random() < 0.5 ? '#2A2650' : '#332E5E';
    buildings.push(rect(x, H - 130 - h, w, h + 130, shade));
    for (let wy = H - 110 - h; wy < H - 170; wy += 44)
      for (let wx = x + 14; wx < x + w - 24; wx += 30) if (random() < 0.42) buildings.push(rect(wx, wy, 16, 24, random() < 0.7 ? '#F6C66A' : '#F08A5D', 2));
    x += w + 6;
  }
  // A string of lanterns across the street.
  const lanterns: string[] = [stroke('M0 210 Q480 300 980 200', '#57527F', 4)];
  for (let i = 0; i < 9; i++) {
    const t = (i + 0.5) / 9;
    const x = t * 980;
    const y = (1 - t) * (1 - t) * 210 + 2 * (1 - t) * t * 300 + t * t * 200;
    lanterns.push(
      stroke(`M${n(x)} ${n(y)} V${n(y + 18)}`, '#57527F', 3),
      ellipse(x, y + 46, 22, 30, i % 3 === 1 ? '#F6C66A' : C.coral),
      rect(x - 14, y + 14, 28, 6, '#1E1B3A', 2),
      rect(x - 14, y + 72, 28, 6, '#1E1B3A', 2),
    );
  }
  // A last train passing on a viaduct in the distance.
  const train =
    rect(0, 750, W, 24, '#151330') +
    [0, 1, 2, 3]
      .map((i) => rect(60 + i * 250, 680, 236, 70, '#4A4580', 10) + [0, 1, 2, 3, 4].map((k) => rect(76 + i * 250 + k * 44, 696, 30, 26, '#F6E3A0', 3)).join(''))
      .join('') +
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => rect(40 + i * 200, 774, 30, 130, '#151330')).join('');
  // Four issues of the zine, riso colours, fanned.
  const riso = ['#FF48B0', '#0078BF', '#FFE800', '#00A95C'];
  const zines = riso
    .map((colour, i) => {
      const x = 1060 + i * 26;
      const y = 170 + i * 40;
      const cover =
        rect(x, y, 380, 520, colour, 6) +
        rect(x + 30, y + 30, 320, 300, '#1E1B3A', 4) +
        circle(x + 250, y + 110, 40, colour, { opacity: 0.9 }) +
        rect(x + 60, y + 200, 60, 130, '#332E5E') +
        rect(x + 130, y + 160, 80, 170, '#2A2650') +
        rect(x + 220, y + 230, 100, 100, '#332E5E') +
        textLines(x + 30, y + 370, 320, [0.8, 0.5], '#1E1B3A', 22, 44) +
        circle(x + 320, y + 470, 18, '#1E1B3A');
      return group(`rotate(${(i - 1.5) * 5} ${x + 190} ${y + 260})`, cover);
    })
    .join('');
  return svg(W, H, rect(0, 0, W, H, C.navy) + circle(820, 120, 50, '#F6E3A0') + buildings.join('') + train + lanterns.join('') + zines);
}

// ---------------------------------------------------------------------------------------------------------------
// Gallery for Concierge Copilot, 1200×800.

const GW = 1200;
const GH = 800;

/** The guest's side: a phone with an answer in the guest's language, citing the hotel's policy. */
function guestChat(): string {
  const phone =
    rect(410, 40, 380, 720, C.ink, 52) +
    rect(428, 58, 344, 684, C.cream, 38) +
    rect(540, 72, 120, 22, C.ink, 11) +
    // header: the hotel and the language picked
    rect(428, 110, 344, 70, C.teal) +
    circle(476, 145, 22, C.ochre) +
    rect(512, 132, 140, 14, '#A9CBC7', 7) +
    rect(512, 154, 90, 10, '#A9CBC7', 5) +
    rect(686, 130, 66, 30, C.tealDark, 15) +
    circle(706, 145, 8, C.terracotta) +
    rect(720, 141, 22, 8, '#A9CBC7', 4) +
    // guest question
    rect(560, 210, 190, 80, C.terracotta, 24) +
    textLines(580, 232, 150, [1, 0.6], '#F6D2BE', 12, 24) +
    // answer with a citation
    rect(450, 320, 260, 200, C.paper, 24) +
    textLines(472, 346, 216, [1, 0.9, 1, 0.7, 0.85], C.grey, 12, 26) +
    rect(472, 476, 150, 28, C.sage, 14) +
    doc(484, 480, 14, 20, C.paper, C.tealDark, 0) +
    rect(506, 486, 100, 8, C.teal, 4) +
    // guest thanks
    rect(600, 550, 150, 60, C.terracotta, 24) +
    textLines(620, 572, 110, [1], '#F6D2BE', 12) +
    // input row
    rect(450, 672, 230, 46, C.paper, 23) +
    circle(718, 695, 23, C.teal) +
    path('M709 684 L732 695 L709 706 Z', C.cream);
  // The hotel's policy documents the answer came from.
  const docs = [0, 1, 2].map((i) => group(`rotate(${-10 + i * 8} 200 400)`, doc(120 + i * 30, 250 + i * 40, 170, 230, C.paper, C.teal, 4))).join('');
  const link = stroke('M330 470 C380 480 420 490 470 490', C.teal, 5, { 'stroke-dasharray': '2 14' });
  const langs = ['#D9825B', '#2E5E64', '#E3B04B', '#6FA3A0', '#B85C3C', '#8C6A9E']
    .map((c, i) => circle(900 + (i % 3) * 70, 300 + Math.floor(i / 3) * 70, 26, c))
    .join('');
  return svg(GW, GH, rect(0, 0, GW, GH, C.sand) + circle(600, 400, 360, '#EBCDA7') + docs + link + phone + langs);
}

/** The staff side: a question it should not answer alone, handed to the duty manager with a drafted reply and sources. */
function staffHandoff(): string {
  const screen =
    rect(100, 80, 1000, 590, C.ink, 24) + rect(120, 100, 960, 550, C.cream, 10) + rect(540, 670, 120, 60, C.ink) + rect(440, 730, 320, 20, C.ink, 10);
  // Conversation list, one flagged for staff.
  const list = [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const y = 130 + i * 84;
      const flagged = i === 1;
      return (
        rect(140, y, 300, 70, flagged ? '#F6D99A' : C.paper, 12) +
        circle(176, y + 35, 18, flagged ? C.ochre : C.tealLight) +
        textLines(206, y + 20, 210, [0.9, 0.6], flagged ? C.rust : C.grey, 10, 22) +
        (flagged ? circle(420, y + 16, 9, C.coral) : '')
      );
    })
    .join('');
  // The hand-off panel: the guest's question, the drafted reply and its sources, and the duty manager.
  const panel =
    rect(470, 130, 590, 490, C.paper, 14) +
    rect(500, 160, 330, 70, C.sage, 20) +
    textLines(520, 180, 290, [1, 0.55], '#98A78F', 11, 24) +
    rect(500, 250, 530, 8, C.ochre, 4) +
    rect(500, 280, 530, 190, '#FFF4DD', 14, { stroke: C.ochre, 'stroke-width': 3, 'stroke-dasharray': '10 8' }) +
    textLines(526, 306, 470, [1, 0.92, 0.97, 0.6], C.grey, 12, 30) +
    [0, 1]
      .map(
        (i) =>
          rect(526 + i * 150, 424, 136, 30, C.sage, 15) + doc(538 + i * 150, 428, 14, 20, C.paper, C.tealDark, 0) + rect(560 + i * 150, 435, 92, 8, C.teal, 4),
      )
      .join('') +
    person(545, 552, 70, C.teal) +
    textLines(590, 530, 200, [0.9, 0.6], C.grey, 12, 26) +
    rect(870, 530, 160, 56, C.teal, 28) +
    path('M920 558 L942 575 L980 540', 'none', { stroke: C.cream, 'stroke-width': 8, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' });
  return svg(GW, GH, rect(0, 0, GW, GH, C.sage) + screen + list + panel);
}

// ---------------------------------------------------------------------------------------------------------------

const pictures: Picture[] = [
  { name: 'noa-castellan-portrait.jpg', width: 1200, height: 1200, format: 'jpeg', svg: portrait() },
  { name: 'concierge-copilot-cover.webp', width: W, height: H, format: 'webp', svg: conciergeCover() },
  { name: 'rag-evaluation-harness-cover.webp', width: W, height: H, format: 'webp', svg: ragcheckCover() },
  { name: 'clinical-notes-summariser-cover.webp', width: W, height: H, format: 'webp', svg: clinicalCover() },
  { name: 'head-of-ai-orbitale-cover.webp', width: W, height: H, format: 'webp', svg: orbitaleCover() },
  { name: 'kansai-nights-photo-zine-cover.webp', width: W, height: H, format: 'webp', svg: kansaiCover() },
  { name: 'concierge-copilot-guest-chat.webp', width: GW, height: GH, format: 'webp', svg: guestChat() },
  { name: 'concierge-copilot-staff-handoff.webp', width: GW, height: GH, format: 'webp', svg: staffHandoff() },
];

async function encode(picture: Picture): Promise<Buffer> {
  const image = sharp(Buffer.from(picture.svg), { density: 72 }).resize(picture.width, picture.height).flatten({ background: '#ffffff' });
  // No withMetadata(): sharp writes no EXIF, XMP or timestamps, so the bytes depend on the drawing alone.
  return picture.format === 'jpeg'
    ? image.jpeg({ quality: 82, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer()
    : image.webp({ quality: 82, effort: 6, smartSubsample: true }).toBuffer();
}

await mkdir(OUT, { recursive: true });
let total = 0;
let differing = 0;
for (const picture of pictures) {
  const bytes = await encode(picture);
  total += bytes.length;
  if (bytes.length > MAX_BYTES) throw new Error(`${picture.name} is ${bytes.length} bytes; at most ${MAX_BYTES}`);
  const file = join(OUT, picture.name);
  const current = await readFile(file).catch(() => undefined);
  const same = current?.equals(bytes) ?? false;
  if (!same) differing++;
  if (!same && !CHECK) await writeFile(file, bytes);
  console.log(
    `${same ? 'unchanged' : CHECK ? 'DIFFERS  ' : 'written  '} ${picture.name} ${picture.width}×${picture.height} ${(bytes.length / 1024).toFixed(1)} kB`,
  );
}
console.log(`total ${(total / 1024).toFixed(1)} kB`);
if (total > MAX_TOTAL) throw new Error(`the images weigh ${total} bytes together; at most ${MAX_TOTAL}`);
if (CHECK && differing) {
  console.error(`${differing} image(s) missing or different from what this script draws: run it without --check.`);
  process.exit(1);
}
