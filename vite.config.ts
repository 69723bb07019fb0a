// The dashboard (renderer/) build. Built files go to dist/renderer, content-hashed under /_app/ so the
// server can cache them immutably; /assets stays free for the dashboard's own Assets screen.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./renderer', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  resolve: {
    // Types only: the renderer imports server schemas with `import type`, erased at build.
    alias: { '@server': fileURLToPath(new URL('./server', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    assetsDir: '_app',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
    // Scripts are never inlined as data: URLs (the audio worklet): the dashboard's CSP allows scripts from 'self' only.
    assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined),
  },
});
