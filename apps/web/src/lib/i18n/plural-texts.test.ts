import { describe, expect, it } from 'vitest';
import { t } from './index';

describe('texts with a count', () => {
  it('name a PDF’s pages in the right number', () => {
    expect(t('common.resourceView.pdfTitle', { name: 'Leaflet', count: 1 })).toBe('Leaflet (PDF, 1 page)');
    expect(t('common.resourceView.pdfTitle', { name: 'Guideline', count: 3 })).toBe('Guideline (PDF, 3 pages)');
  });
});
