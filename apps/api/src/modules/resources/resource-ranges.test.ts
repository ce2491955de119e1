import { describe, expect, it } from 'vitest';
import type { ResourceFileDetails } from '@pss/contract';
import { expectError } from '../../../test/kit.js';
import { resourceSetup } from '../../../test/resource-calls.js';
import { smallPdf } from '../../../test/summary-files.js';
import { byteRange } from './resources.routes.js';

const { call, pathOf, uploaded } = resourceSetup();

describe('byte ranges', () => {
  it('reads one satisfiable range, clamped to the end', () => {
    expect(byteRange('bytes=0-4', 100)).toEqual({ start: 0, end: 4 });
    expect(byteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(byteRange('Bytes = 0-4', 100)).toEqual({ start: 0, end: 4 });
    // One range of several past the end is left out; the other is answered.
    expect(byteRange('bytes=0-4, 200-300', 100)).toEqual({ start: 0, end: 4 });
  });

  it('is unsatisfiable when every range starts past the end, or asks for no bytes at all', () => {
    for (const header of ['bytes=100-', 'bytes=100-200', 'bytes=500-', 'bytes=-0', 'bytes=100-,200-300']) {
      expect(byteRange(header, 100), header).toBe('unsatisfiable');
    }
    expect(byteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('means the whole file for no header, a malformed one, another unit, or several ranges', () => {
    for (const header of [undefined, '', 'bytes=', 'bytes=-', 'bytes=5-1', 'bytes=a-b', 'items=0-1', 'bytes=0-1,3-4']) {
      expect(byteRange(header, 100), String(header)).toBeNull();
    }
  });
});

describe('a range past the end of a resource’s file', () => {
  it('is answered 416 RANGE_NOT_SATISFIABLE with the file’s size, not the whole file', async () => {
    const pdf = smallPdf();
    const resource = await uploaded(pdf, 'Handout.pdf');
    const details = (await call('GET', `/resource-library/file/${resource.id}/details`)).json<ResourceFileDetails>();
    const past = await call('GET', pathOf(details.view.url), { headers: { range: `bytes=${pdf.length}-` } });
    expectError(past, 416, 'RANGE_NOT_SATISFIABLE');
    expect(past.headers['content-range']).toBe(`bytes */${pdf.length}`);
    const within = await call('GET', pathOf(details.view.url), { headers: { range: `bytes=-4` } });
    expect(within.statusCode).toBe(206);
    expect(within.headers['content-range']).toBe(`bytes ${pdf.length - 4}-${pdf.length - 1}/${pdf.length}`);
    const malformed = await call('GET', pathOf(details.view.url), { headers: { range: 'bytes=9-2' } });
    expect(malformed.statusCode).toBe(200);
    expect(malformed.rawPayload.equals(pdf)).toBe(true);
  });
});
