#!/usr/bin/env node
// Draws the Рейс logo (a truck on the road, the letter Р on its box) and renders the PWA icons.
// The SVGs are written from one drawing so the favicon, the icons and the maskable icon never drift apart;
// the PNGs come from headless Chromium because no image library is a dependency of the project.
// Run: node scripts/make-icons.mjs (writes public/favicon.svg and public/icons/*).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const THEME = '#1f4e79';
const ROAD = '#8fb6de';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const iconsDir = join(root, 'public', 'icons');

// Drawn on a 512 grid, centred on (256, 256); the letter is a stroke, not text, so no font is needed.
const artwork = `
  <g fill="none" stroke="${ROAD}" stroke-width="14" stroke-linecap="round">
    <path d="M52 214h44M36 254h60M60 294h36"/>
  </g>
  <rect x="92" y="388" width="360" height="14" rx="7" fill="${ROAD}"/>
  <rect x="116" y="150" width="214" height="178" rx="20" fill="#fff"/>
  <path d="M186 298V190h48a34 34 0 0 1 0 68h-48" fill="none" stroke="${THEME}" stroke-width="30"
    stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M342 196h62a12 12 0 0 1 9 4l43 50a12 12 0 0 1 3 8v58a12 12 0 0 1-12 12h-105z" fill="#fff"/>
  <path d="M358 212h40l30 36h-70z" fill="${THEME}"/>
  <g fill="#fff" stroke="${THEME}" stroke-width="12">
    <circle cx="182" cy="340" r="38"/>
    <circle cx="392" cy="340" r="38"/>
  </g>
  <g fill="${THEME}">
    <circle cx="182" cy="340" r="11"/>
    <circle cx="392" cy="340" r="11"/>
  </g>`;

// The truck spans x 36..456 and y 150..402; this shifts it to the middle of the square.
const centred = `<g transform="translate(-2 -20)">${artwork}</g>`;

function svg(body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">${body}\n</svg>\n`;
}

// "any" purpose: a rounded tile, as launchers and tabs show it.
const iconSvg = svg(`
  <title>Рейс</title>
  <rect width="512" height="512" rx="112" fill="${THEME}"/>${centred}`);

// Maskable: full-bleed background, the artwork scaled into the central safe circle (radius 40% of the side),
// so any launcher mask (circle, squircle, teardrop) keeps the whole truck.
const maskableSvg = svg(`
  <title>Рейс</title>
  <rect width="512" height="512" fill="${THEME}"/>
  <g transform="translate(256 256) scale(0.84) translate(-256 -256)">${centred}</g>`);

const outputs = [
  { file: 'icon-192.png', markup: iconSvg, size: 192 },
  { file: 'icon-512.png', markup: iconSvg, size: 512 },
  { file: 'icon-maskable-512.png', markup: maskableSvg, size: 512 },
];

mkdirSync(iconsDir, { recursive: true });
writeFileSync(join(iconsDir, 'icon.svg'), iconSvg);
writeFileSync(join(iconsDir, 'icon-maskable.svg'), maskableSvg);
writeFileSync(join(root, 'public', 'favicon.svg'), iconSvg);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, markup, size } of outputs) {
    await page.setViewportSize({ width: size, height: size });
    const sized = markup.replace('width="512" height="512"', `width="${size}" height="${size}"`);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    const png = await page.screenshot({ type: 'png', omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    writeFileSync(join(iconsDir, file), png);
    console.info(`wrote public/icons/${file} (${size}×${size}, ${png.length} bytes)`);
  }
} finally {
  await browser.close();
}
