#!/usr/bin/env bash
# One-shot GPU bench (DEVELOPERS.md "Benchmarks"): builds the worker and whisper-cli with CUDA, then benches
# base, medium and large-v3 dimensions on the GPU and on every CPU thread of the same machine, and writes the
# figures to bench/results/gpu-<date>/. Run it once on a machine with an NVIDIA GPU, CUDA and this checkout
# (npm ci done); nothing here needs the network.
set -euo pipefail
cd "$(dirname "$0")/.."

out="bench/results/gpu-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
threads="$(nproc)"
{
  echo "# GPU bench, $(date -u +%Y-%m-%d)"
  echo
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /' || echo "GPU: nvidia-smi not found"
  nvcc --version 2>/dev/null | tail -1 | sed 's/^/CUDA: /' || true
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), ${threads} threads"
} > "$out/summary.md"

# every CPU level, so the CPU rows use the machine's widest (AVX-512 on a server) as a package would
export FOLIO_WHISPER_CPU=all FOLIO_WHISPER_GPU="${FOLIO_WHISPER_GPU:-cuda}"
started=$(date +%s)
npx tsx scripts/build-whisper.ts 2>&1 | tee "$out/build.log"
echo "build: $(( $(date +%s) - started )) s" >> "$out/summary.md"

for preset in base medium large-v3; do
  for device in gpu cpu; do
    echo "== $preset on $device"
    npx tsx bench/transcription-engine.ts \
      --preset "$preset" --device "$device" --threads "$threads" --json "$out/$preset-$device.json" \
      2>&1 | tee "$out/$preset-$device.log"
    { echo; echo "## $preset, --device $device"; echo; grep -E '^(device|\||worker /|cancel)' "$out/$preset-$device.log"; } >> "$out/summary.md"
  done
done
echo "figures in $out/summary.md"
