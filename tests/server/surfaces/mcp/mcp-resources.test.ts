// Resources and prompts: the reference as resources (the same text the HTTP routes serve), records as templates,
// and prompts offered only to keys that can call the tools they need.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { callOk, connect } from './harness.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());

const textOf = (contents: object[]) => String((contents[0] as { text?: string }).text);

describe('resources', () => {
  it('folio://reference/llms.txt and llms-full.txt are the documents the server serves, MCP section included', async () => {
    const client = await connect(srv, await srv.createKey({ services: [] }));
    for (const [uri, path] of [
      ['folio://reference/llms.txt', '/llms.txt'],
      ['folio://reference/llms-full.txt', '/llms-full.txt'],
    ]) {
      const read = await client.readResource({ uri });
      expect(read.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
      expect(textOf(read.contents)).toBe(await (await fetch(`${srv.url}${path}`)).text());
    }
    expect(textOf((await client.readResource({ uri: 'folio://reference/llms.txt' })).contents)).toContain(
      '## MCP server for agents',
    );
    const notes = await client.readResource({ uri: 'folio://reference/transcription' });
    expect(textOf(notes.contents).length).toBeGreaterThan(100);
    await client.close();
  });

  it('record templates follow the key’s services, list its records and read them through their routes', async () => {
    const both = await connect(srv, await srv.createKey({ services: ['assets', 'transcription'] }));
    const assetsOnly = await connect(srv, await srv.createKey({ services: ['assets'] }));
    const templates = async (client: typeof both) =>
      (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
    expect(await templates(both)).toEqual(['folio://assets/{id}', 'folio://transcripts/{id}']);
    expect(await templates(assetsOnly)).toEqual(['folio://assets/{id}']);

    const asset = await callOk(assetsOnly, 'assets_upload', {
      contentBase64: Buffer.from('resource me').toString('base64'),
      filename: 'res.txt',
    });
    const { resources } = await assetsOnly.listResources();
    expect(resources).toContainEqual(
      expect.objectContaining({
        uri: `folio://assets/${asset.id}`,
        name: 'res.txt',
        mimeType: 'application/json',
      }),
    );
    const read = await assetsOnly.readResource({ uri: `folio://assets/${asset.id}` });
    expect(JSON.parse(textOf(read.contents))).toEqual(asset);
    await expect(assetsOnly.readResource({ uri: 'folio://assets/ast_missing' })).rejects.toMatchObject({
      code: -32002,
      data: { httpStatus: 404, error: 'Asset not found' },
    });
    await both.close();
    await assetsOnly.close();
  });
});

describe('prompts', () => {
  it('are offered when the key can call the tools they need, and fill in their arguments', async () => {
    const none = await connect(srv, await srv.createKey({ services: [] }));
    const transcription = await connect(srv, await srv.createKey({ services: ['transcription'] }));
    expect((await none.listPrompts()).prompts).toEqual([]);
    const names = (await transcription.listPrompts()).prompts.map((p) => p.name).sort();
    expect(names).toEqual(['summarize_transcript', 'transcribe_file']);
    const prompt = await transcription.getPrompt({
      name: 'transcribe_file',
      arguments: { path: '/tmp/memo.m4a' },
    });
    expect(prompt.messages[0].content).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Transcribe /tmp/memo.m4a with transcripts_create'),
    });
    await none.close();
    await transcription.close();
  });
});
