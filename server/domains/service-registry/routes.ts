import { defineRoute } from '../../http/define-route.js';
import { SERVICE_NAMES } from '../../http/viewer.js';
import { ServiceList } from './schema.js';

const DESCRIPTIONS: Record<(typeof SERVICE_NAMES)[number], string> = {
  assets: 'Uploads, asset records, client-upload grants and public serve URLs (/img, /f, /audio)',
  transcription:
    'Local Whisper transcription, transcripts, chunked upload of long audio, OpenAI-compatible endpoint',
  realtime: 'Minting live voice sessions streamed to the local Whisper engine',
  diagrams: 'Publishing and serving agent-authored diagrams',
  artifacts: 'Validating, publishing and serving interactive pages built from the component catalog',
  charts: 'Previewing, publishing and serving data-driven charts',
};

export const listServices = defineRoute({
  method: 'GET',
  path: '/api/v1/services',
  auth: ['session', 'key'],
  response: ServiceList,
  summary: 'The services an API key can be scoped to (any key may call this)',
  tool: 'services_list',
  tag: 'account',
  handler: () => ({ data: SERVICE_NAMES.map((name) => ({ name, description: DESCRIPTIONS[name] })) }),
});

export const serviceRegistryRoutes = { listServices };
