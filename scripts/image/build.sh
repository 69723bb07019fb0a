#!/usr/bin/env bash
# The hosted node's build stage (Dockerfile), also run by CI on its own machine: builds the Whisper worker, the
# dashboard and dist/server/ in this checkout (npm ci done), then assembles in OUT what the runtime stage copies:
# package files, the built output, the worker beside its libraries, and production dependencies only (no tsx, no
# esbuild, no compiler). FOLIO_WHISPER_CPU=all (the default here) builds every x86-64 CPU module, as a package
# must run on any CPU; CI passes host to build one.
set -euo pipefail
out=${1:?usage: scripts/image/build.sh OUT}
cd "$(dirname "$0")/../.."

export FOLIO_WHISPER_CPU=${FOLIO_WHISPER_CPU:-all} FOLIO_WHISPER_GPU=${FOLIO_WHISPER_GPU:-off}
npm run --silent build:whisper
npm run --silent build:dashboard
npm run --silent build:server

rm -rf "$out"
mkdir -p "$out/build/whisper" "$out/dist"
cp package.json package-lock.json "$out/"
cp -R dist/server dist/renderer "$out/dist/"
# the worker, the libraries and modules it loads and its VAD weights, as build/whisper/ holds them (no CMake trees)
find build/whisper -maxdepth 1 -type f \( -name 'folio-whisper-worker' -o -name 'libggml*.so*' -o -name 'silero-vad-v5.ggml' \) \
  -exec cp {} "$out/build/whisper/" \;
# production dependencies only; none needs an install script (sharp's binaries are packages of their own), and
# Electron's is for the desktop app
(cd "$out" && ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
echo "image: assembled in $out ($(du -sh "$out" | cut -f1))"
