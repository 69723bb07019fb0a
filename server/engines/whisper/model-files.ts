/** Where installed models live: <dataDir>/models/<file>. */
import { join } from 'node:path';

export function modelsDir(dataDir: string): string {
  return join(dataDir, 'models');
}
