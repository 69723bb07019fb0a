/**
 * Release step on macOS (.github/workflows/release.yml): joins the worker built for arm64 and for x86_64 into one
 * universal folder, so the universal dmg runs on both. Each file built for both architectures becomes one universal
 * binary (lipo); a file built for one only (the x86-64 CPU variants, libggml-cpu-haswell.so, ...) is copied as it
 * is, and the other architecture's worker never loads it. Usage: tsx scripts/lipo-worker.ts <arm64 dir> <x64 dir> <out dir>
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [arm, x64, out] = process.argv.slice(2);
if (!arm || !x64 || !out) {
  console.error('usage: tsx scripts/lipo-worker.ts <arm64 build/whisper> <x86_64 build/whisper> <out>');
  process.exit(2);
}
const shipped = (dir: string) =>
  readdirSync(dir).filter((name) => name === 'folio-whisper-worker' || /^libggml.*\.(dylib|so)$/.test(name));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const name of new Set([...shipped(arm), ...shipped(x64)])) {
  const inArm = existsSync(join(arm, name));
  const inX64 = existsSync(join(x64, name));
  if (inArm && inX64)
    execFileSync('lipo', ['-create', join(arm, name), join(x64, name), '-output', join(out, name)]);
  else copyFileSync(join(inArm ? arm : x64, name), join(out, name));
}
const worker = execFileSync('lipo', ['-archs', join(out, 'folio-whisper-worker')], {
  encoding: 'utf8',
}).trim();
if (!/arm64/.test(worker) || !/x86_64/.test(worker)) {
  console.error(`lipo-worker: the joined worker holds ${worker}, not arm64 and x86_64`);
  process.exit(1);
}
console.log(`lipo-worker: ${out} (worker: ${worker})`);
