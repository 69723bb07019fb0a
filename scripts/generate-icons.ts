/**
 * App icons from build/icon.svg: PNGs for Linux (16–1024), icon.icns (macOS), icon.ico (Windows) and a small
 * tray icon. The generated files are committed; run again after changing the SVG: tsx scripts/generate-icons.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import png2icons from 'png2icons';
import sharp from 'sharp';

const build = fileURLToPath(new URL('../build/', import.meta.url));
const svg = readFileSync(`${build}icon.svg`);
const render = (size: number) =>
  sharp(svg, { density: Math.max(72, (72 * size) / 1024) * 4 })
    .resize(size, size)
    .png()
    .toBuffer();

mkdirSync(`${build}icons/png`, { recursive: true });
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024])
  writeFileSync(`${build}icons/png/${size}x${size}.png`, await render(size));
const master = await render(1024);
const icns = png2icons.createICNS(master, png2icons.BICUBIC2, 0);
const ico = png2icons.createICO(master, png2icons.BICUBIC2, 0, true, true);
if (!icns || !ico) throw new Error('png2icons could not convert the icon');
writeFileSync(`${build}icons/icon.icns`, icns);
writeFileSync(`${build}icons/icon.ico`, ico);
writeFileSync(`${build}icons/tray.png`, await render(32));
console.log('icons: build/icons/png/*.png, icon.icns, icon.ico, tray.png');
