# A Folio node for a hosted instance (docs/hosted.md), in two stages. The build stage has the compiler, CMake and
# every dependency, and runs scripts/image/build.sh (the Whisper worker, the dashboard, dist/server/, production
# dependencies assembled in /out); the runtime stage holds /out, ffmpeg and Node alone, runs as a user of its own,
# and starts the built server: nothing is compiled while it runs. CI runs the same two scripts on its own machine
# (scripts/image/build.sh, scripts/image/check.sh). Configure it with FOLIO_* environment (deploy/compose.yaml).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake ninja-build python3 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# Electron's binary is for the desktop app; a node never needs it.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
RUN npm ci --no-audit --no-fund
COPY . .
# every x86-64 CPU module, so the image runs on any CPU (FOLIO_WHISPER_CPU=host builds one, for this machine only)
ARG FOLIO_WHISPER_CPU=all
RUN FOLIO_WHISPER_CPU=${FOLIO_WHISPER_CPU} bash scripts/image/build.sh /out

FROM ${NODE_IMAGE}
# Debian 12's ffmpeg is 5.1, maintained with the distribution's security updates (README "Audio decoding")
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system folio && useradd --system --gid folio --home-dir /app folio \
 && mkdir -p /data && chown folio:folio /data
COPY --from=build /out /app
WORKDIR /app
USER folio
ENV NODE_ENV=production FOLIO_HOST=0.0.0.0 FOLIO_PORT=4780 FOLIO_DATA_DIR=/data
EXPOSE 4780
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:4780/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/server/main.js"]
