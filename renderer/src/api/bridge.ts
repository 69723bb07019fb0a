// The desktop shell's few extras (electron/bridge.ts); undefined in a plain browser, where everything
// else works the same over HTTP.
import type { FolioBridge } from '../../../electron/bridge';

declare global {
  interface Window {
    folio?: FolioBridge;
  }
}

export const desktop = (): FolioBridge | undefined => window.folio;
