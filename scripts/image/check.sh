#!/usr/bin/env bash
# Checks an assembled node (scripts/image/build.sh OUT) the way the image runs it: `node dist/server/main.js` from
# OUT alone, with no checkout, tsx or esbuild beside it. It must answer /ready, serve the dashboard and the API
# reference, and its worker must find every library it links.
set -euo pipefail
dir=$(cd "${1:?usage: scripts/image/check.sh OUT}" && pwd)
for devOnly in tsx esbuild vitest; do
  if [ -e "$dir/node_modules/$devOnly" ]; then echo "image: $devOnly is in node_modules, but only production dependencies may be" >&2; exit 1; fi
done
if ldd "$dir/build/whisper/folio-whisper-worker" | grep -q 'not found'; then
  ldd "$dir/build/whisper/folio-whisper-worker" >&2
  echo "image: the worker links a library that is not there" >&2
  exit 1
fi
data=$(mktemp -d)
log=$(mktemp)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data" "$log"' EXIT
(cd "$data" && FOLIO_DATA_DIR="$data" FOLIO_PORT=0 node "$dir/dist/server/main.js" >"$log" 2>&1) &
pid=$!
url=
for _ in $(seq 1 100); do
  url=$(sed -n 's/^Folio listening on \(http[^ ]*\)$/\1/p' "$log")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$log" >&2; echo "image: the server did not start" >&2; exit 1; }
node -e '
  const url = process.argv[1];
  const expect = async (path, check) => {
    const res = await fetch(url + path);
    const body = await res.text();
    if (!res.ok || !check(body, res)) { console.error(`image: ${path} answered ${res.status}: ${body.slice(0, 200)}`); process.exit(1); }
  };
  (async () => {
    await expect("/ready", () => true);
    await expect("/api/v1/openapi.json", (body) => JSON.parse(body).info.version.length > 0);
    await expect("/c/-/runtime.js", (body) => body.length > 100000);
    console.log(`image: ${url} ready; reference and chart runtime served from the built files`);
  })();
' "$url"
