# A Folio node for a hosted instance (docs/hosted.md). It runs exactly the documented commands: npm ci, the
# Whisper engine build, npm run serve. Configure it with FOLIO_* environment (deploy/compose.yaml shows a set).
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential python3 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Electron's binary is for the desktop app; a node never needs it.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:whisper \
 && mkdir -p /data \
 && chown node:node /data
USER node
ENV FOLIO_HOST=0.0.0.0 FOLIO_PORT=4780 FOLIO_DATA_DIR=/data
EXPOSE 4780
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4780/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["npm", "run", "serve"]
