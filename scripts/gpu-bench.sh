#!/usr/bin/env bash
# One-shot GPU bench (DEVELOPERS.md "Benchmarks"): builds the worker and whisper-cli with CUDA and Vulkan, then
# benches base, medium and large-v3 dimensions on each GPU backend and on every CPU thread of the same machine, and
# writes the figures to bench/results/gpu-<date>/. Each bench runs a warm-up job before timing (the driver compiles
# PTX and pipelines on first use); a row counts only if the worker reported the GPU backend it was meant to run on
# (the GPU confirmed in use, not assumed) and nvidia-smi saw the GPU busy; one failing preset does not stop the rest.
# Run it once on a machine with an NVIDIA GPU, CUDA, a Vulkan SDK and this checkout (npm ci done); nothing here needs
# the network.
set -uo pipefail
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
export FOLIO_WHISPER_CPU=all FOLIO_WHISPER_GPU="${FOLIO_WHISPER_GPU:-cuda,vulkan}"
started=$(date +%s)
if ! npx tsx scripts/build-whisper.ts > "$out/build.log" 2>&1; then
  echo "build failed: $(tail -5 "$out/build.log")" >> "$out/summary.md"
  exit 1
fi
echo "build: $(( $(date +%s) - started )) s ($(grep -c . "$out/build.log") lines in build.log)" >> "$out/summary.md"

# backend: the device the run is on; its environment hides the other GPU backend's devices
run() {
  local preset=$1 backend=$2 device env=()
  case $backend in
    CUDA) device=gpu; env=(GGML_VK_VISIBLE_DEVICES=) ;;
    Vulkan) device=gpu; env=(CUDA_VISIBLE_DEVICES=) ;;
    CPU) device=cpu ;;
  esac
  local log="$out/$preset-$backend.log" busy="$out/$preset-$backend.gpu-busy"
  echo "== $preset on $backend"
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 500 > "$busy" 2>/dev/null &
  local sampler=$!
  env "${env[@]}" npx tsx bench/transcription-engine.ts --preset "$preset" --device "$device" --threads "$threads" \
    --json "$out/$preset-$backend.json" > "$log" 2>&1
  local status=$?
  kill "$sampler" 2>/dev/null
  {
    echo
    echo "## $preset, $backend"
    echo
    if [ $status -ne 0 ]; then
      echo "failed (exit $status): $(tail -3 "$log" | tr '\n' ' ')"
    elif [ "$backend" != CPU ] && ! grep -q "^device: $backend on " "$log"; then
      echo "not counted: the worker did not run on $backend ($(grep '^device:' "$log"))"
    else
      grep -E '^(device|\||worker /|cancel)' "$log"
      [ "$backend" != CPU ] && echo "GPU busy: peak $(sort -n "$busy" | tail -1) % (nvidia-smi, every 0.5 s)"
    fi
  } >> "$out/summary.md"
}

for preset in base medium large-v3; do
  for backend in CUDA Vulkan CPU; do run "$preset" "$backend"; done
done
echo "figures in $out/summary.md"
