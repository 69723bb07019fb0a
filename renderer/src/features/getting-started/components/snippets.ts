// Copy-ready ways to call this Folio: curl, the OpenAI client pointed at /v1, and an MCP client config.
export type Snippet = { id: string; label: string; language: string; code: string };

export function snippets(origin: string, secret?: string): Snippet[] {
  const key = secret ?? '$FOLIO_KEY';
  const envKey = secret ? `'${secret}'` : "os.environ['FOLIO_KEY']";
  const jsKey = secret ? `'${secret}'` : 'process.env.FOLIO_KEY';
  return [
    {
      id: 'curl',
      label: 'curl',
      language: 'shell',
      code: `${secret ? `export FOLIO_KEY=${secret}\n` : ''}curl ${origin}/api/v1/me -H "Authorization: Bearer $FOLIO_KEY"

# upload a file, then transcribe a recording
curl ${origin}/api/v1/uploads -H "Authorization: Bearer $FOLIO_KEY" -F file=@photo.jpg
curl ${origin}/api/v1/transcribe -H "Authorization: Bearer $FOLIO_KEY" -F file=@memo.m4a`,
    },
    {
      id: 'python',
      label: 'OpenAI · Python',
      language: 'python',
      code: `import os
from openai import OpenAI

client = OpenAI(base_url="${origin}/v1", api_key=${envKey})
with open("memo.m4a", "rb") as audio:
    transcript = client.audio.transcriptions.create(model="whisper-1", file=audio)
print(transcript.text)`,
    },
    {
      id: 'node',
      label: 'OpenAI · Node',
      language: 'javascript',
      code: `import fs from 'node:fs';
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: '${origin}/v1', apiKey: ${jsKey} });
const transcript = await client.audio.transcriptions.create({
  model: 'whisper-1',
  file: fs.createReadStream('memo.m4a'),
});
console.log(transcript.text);`,
    },
    {
      id: 'mcp',
      label: 'MCP',
      language: 'json',
      code: JSON.stringify(
        {
          mcpServers: {
            folio: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${key}` } },
          },
        },
        null,
        2,
      ),
    },
  ];
}
