// The dashboard's downloads (transcript exports) name the file as the server's Content-Disposition says, whatever
// the name holds; the headers here are made by the `content-disposition` package, as the server makes them.
import contentDisposition from 'content-disposition';
import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from '../../renderer/src/api/download-filename.js';

describe('filenameFromDisposition', () => {
  it.each([
    '100% done.txt',
    '50%25 off.srt',
    'Café – 日本語 😀.vtt',
    'a "quoted" name.json',
    'semi;colon.txt',
    'plain.txt',
  ])('reads %s back exactly from the header the server writes', (name) => {
    expect(filenameFromDisposition(contentDisposition(name))).toBe(name);
  });

  it('prefers filename* over the ASCII fallback, in either order', () => {
    expect(filenameFromDisposition(`attachment; filename="Caf? .txt"; filename*=UTF-8''Caf%C3%A9.txt`)).toBe(
      'Café.txt',
    );
    expect(filenameFromDisposition(`attachment; filename*=utf-8''Caf%C3%A9.txt; filename="Caf? .txt"`)).toBe(
      'Café.txt',
    );
    expect(filenameFromDisposition(`attachment; filename*=ISO-8859-1''Caf%E9.txt`)).toBe('Café.txt');
  });

  it('never throws: a broken filename* falls back to filename, and no name to the fallback', () => {
    expect(filenameFromDisposition(`attachment; filename="a.txt"; filename*=UTF-8''%E0%A4%A.txt`)).toBe(
      'a.txt',
    );
    expect(filenameFromDisposition(`attachment; filename*=UTF-8''%ZZ`)).toBe('download');
    expect(filenameFromDisposition('attachment')).toBe('download');
    expect(filenameFromDisposition(null, 'export.txt')).toBe('export.txt');
  });
});
