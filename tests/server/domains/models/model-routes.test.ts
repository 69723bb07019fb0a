import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import {
  audioForm,
  engineBuilt,
  type Fixtures,
  type Json,
  makeFixtures,
} from '../../../helpers/transcription.js';

describe.skipIf(!engineBuilt)('model manager routes', () => {
  let fx: Fixtures;
  let srv: TestServer;
  let key: string;

  beforeAll(async () => {
    fx = makeFixtures();
    srv = await startTestServer();
    key = await srv.createKey({ services: ['transcription'] });
  });
  afterAll(async () => {
    await srv?.close();
    fx?.cleanup();
  });

  const session = () => srv.as(srv.owner);
  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Json });

  it('imports a model file, makes it active (session only), and transcription then works', async () => {
    const listed = await json(await srv.as({ bearer: key })('/api/v1/models'));
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ installed: [], active: null, downloads: [] });

    const byKey = await srv.as({ bearer: key })('/api/v1/models/import', {
      method: 'POST',
      body: JSON.stringify({ path: fx.model }),
    });
    expect(byKey.status).toBe(403);
    const notAModel = await session()('/api/v1/models/import', {
      method: 'POST',
      body: JSON.stringify({ path: fx.speech, file: 'speech.bin' }),
    });
    expect(notAModel.status).toBe(400);
    const imported = await json(
      await session()('/api/v1/models/import', { method: 'POST', body: JSON.stringify({ path: fx.model }) }),
    );
    expect(imported.status).toBe(201);
    expect(imported.body.file).toBe('micro.bin');
    const twice = await session()('/api/v1/models/import', {
      method: 'POST',
      body: JSON.stringify({ path: fx.model }),
    });
    expect(twice.status).toBe(409);

    expect(
      (
        await srv.as({ bearer: key })('/api/v1/models/active', {
          method: 'PUT',
          body: JSON.stringify({ name: 'micro.bin' }),
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await session()('/api/v1/models/active', {
          method: 'PUT',
          body: JSON.stringify({ name: 'nope.bin' }),
        })
      ).status,
    ).toBe(404);
    const active = await json(
      await session()('/api/v1/models/active', {
        method: 'PUT',
        body: JSON.stringify({ name: 'micro.bin' }),
      }),
    );
    expect(active.status).toBe(200);
    const after = await json(await srv.as({ bearer: key })('/api/v1/models'));
    expect(after.body.active).toMatchObject({ file: 'micro.bin', source: 'model manager' });
    expect(after.body.installed).toMatchObject([{ file: 'micro.bin', usable: true, active: true }]);

    const res = await srv.as({ bearer: key })('/api/v1/transcribe', {
      method: 'POST',
      body: audioForm(fx.speechBytes),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).model).toBe('micro.bin');

    // the OpenAI endpoint's `model` may name an installed model; any other value means the active one
    for (const model of ['micro.bin', 'whisper-1']) {
      const openai = await srv.as({ bearer: key })('/v1/audio/transcriptions', {
        method: 'POST',
        body: audioForm(fx.speechBytes, 'a.wav', { model }),
      });
      expect(openai.status).toBe(200);
      const id = openai.headers.get('x-folio-transcript-id');
      const t = (await (await srv.as({ bearer: key })(`/api/v1/transcripts/${id}`)).json()) as Json;
      expect(t.model).toBe('micro.bin');
    }
  });

  it('answers 404 for models outside the catalog and downloads never started', async () => {
    expect((await session()('/api/v1/models/not-a-model/download', { method: 'POST' })).status).toBe(404);
    expect((await srv.as({ bearer: key })('/api/v1/models/downloads/tiny.en')).status).toBe(404);
    expect(
      (await srv.as({ bearer: key })('/api/v1/models/tiny.en/download', { method: 'POST' })).status,
    ).toBe(403);
  });

  it('deletes an installed model, but not the active one, and only for the instance owner', async () => {
    const imported = await session()('/api/v1/models/import', {
      method: 'POST',
      body: JSON.stringify({ path: fx.model, file: 'spare.bin' }),
    });
    expect(imported.status).toBe(201);
    const active = ((await (await session()('/api/v1/models')).json()) as Json).active;
    if (active) {
      const refused = await session()(`/api/v1/models/${active.file}`, { method: 'DELETE' });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as Json).error).toMatch(/active model/);
    }
    expect((await srv.as({ bearer: key })('/api/v1/models/spare.bin', { method: 'DELETE' })).status).toBe(
      403,
    );
    expect((await session()('/api/v1/models/spare.bin', { method: 'DELETE' })).status).toBe(204);
    const after = (await (await session()('/api/v1/models')).json()) as Json;
    expect(after.installed.map((m: Json) => m.file)).not.toContain('spare.bin');
    expect((await session()('/api/v1/models/spare.bin', { method: 'DELETE' })).status).toBe(404);
  });
});
