// The main process's entry (bundled as dist/electron/main.js): it turns Node's compile cache on before the app's
// modules load, so every launch after the first reads their compiled bytecode instead of compiling them again
// (bench/README.md "Start at any size, third pass"), then runs the app (main.ts). The cache lives in the user's
// data folder, not a temp folder other users share. An AppImage mounts at a new path on every launch, which no
// cached entry would match, so it runs without one.
import nodeModule from 'node:module';
import { join } from 'node:path';
import { app, dialog } from 'electron';

if (!process.env.APPIMAGE) nodeModule.enableCompileCache?.(join(app.getPath('userData'), 'compile-cache'));

import('./main.js').catch((error: Error) => {
  dialog.showErrorBox('Folio could not start', error.stack ?? String(error));
  app.exit(1);
});
