import { describe, expect, it } from 'vitest';
import { smallDocx, smallPdf, smallXlsx, videoHead, zipOf } from '../../test/summary-files.js';
import { sheetTypeOf, videoTypeOf, zipEntryNames } from './media-type.js';

describe('a sheet’s type, by its bytes', () => {
  it('knows a PDF and an XLSX', () => {
    expect(sheetTypeOf(smallPdf())).toBe('application/pdf');
    expect(sheetTypeOf(smallXlsx())).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('refuses a text file named .pdf, a Word document, any other ZIP and a broken one', () => {
    expect(sheetTypeOf(Buffer.from('Season results: 82% completed\n'))).toBeNull();
    expect(sheetTypeOf(smallDocx())).toBeNull();
    expect(sheetTypeOf(zipOf({ 'notes.txt': 'hello' }))).toBeNull();
    const xlsx = smallXlsx();
    // Cut before its central directory ends, or with the directory pointing past the end.
    expect(sheetTypeOf(xlsx.subarray(0, xlsx.length - 30))).toBeNull();
    const pointingAway = Buffer.from(xlsx);
    pointingAway.writeUInt32LE(xlsx.length + 1000, xlsx.length - 6);
    expect(sheetTypeOf(pointingAway)).toBeNull();
    expect(sheetTypeOf(Buffer.alloc(0))).toBeNull();
    expect(sheetTypeOf(Buffer.from('PK\u0003\u0004'))).toBeNull();
  });

  it('reads the names of a ZIP’s entries from its central directory', () => {
    expect([...zipEntryNames(zipOf({ 'a.txt': 'x', 'dir/b.xml': '<b/>' }))!]).toEqual(['a.txt', 'dir/b.xml']);
  });
});

describe('a video’s type, by its first atom', () => {
  it('knows an MP4 and a MOV', () => {
    expect(videoTypeOf(videoHead('mp4'))).toBe('video/mp4');
    expect(videoTypeOf(videoHead('mov'))).toBe('video/quicktime');
    // An old QuickTime file that begins with its movie atom.
    expect(videoTypeOf(Buffer.from('\u0000\u0000\u0000\u0010moov\u0000\u0000\u0000\u0000', 'latin1'))).toBe(
      'video/quicktime',
    );
  });

  it('refuses audio, images in the same container, other files and a head too short to tell', () => {
    const withBrand = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from(`ftyp${brand}`)]);
    expect(videoTypeOf(Buffer.concat([withBrand('M4A '), Buffer.alloc(4)]))).toBeNull();
    expect(videoTypeOf(Buffer.concat([withBrand('heic'), Buffer.alloc(4)]))).toBeNull();
    expect(videoTypeOf(smallPdf())).toBeNull();
    expect(videoTypeOf(Buffer.from('hello world!'))).toBeNull();
    expect(videoTypeOf(videoHead('mp4').subarray(0, 11))).toBeNull();
  });
});
