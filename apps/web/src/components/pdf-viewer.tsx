import { useEffect, useRef, useState } from 'react';
import { Alert, Group, Loader, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

/**
 * A PDF drawn page by page with pdf.js (loaded on demand, its worker beside it), from a
 * signed link of the same origin: no plugin, no frame, and the same view in every browser.
 * At most the first 50 pages are drawn.
 */
export function PdfViewer(props: { url: string; name: string; height?: number }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ pages: number } | 'loading' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    setState('loading');
    void (async () => {
      try {
        const pdfjs = await import('pdfjs-dist');
        const worker = await import('pdfjs-dist/build/pdf.worker.min.mjs?url');
        pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
        const task = pdfjs.getDocument({ url: props.url, isEvalSupported: false });
        destroy = () => void task.destroy();
        const document = await task.promise;
        if (cancelled || !container.current) return;
        const host = container.current;
        host.replaceChildren();
        const width = Math.max(320, host.clientWidth - 16);
        const count = Math.min(document.numPages, 50);
        setState({ pages: document.numPages });
        for (let n = 1; n <= count && !cancelled; n++) {
          const page = await document.getPage(n);
          const base = page.getViewport({ scale: 1 });
          const scale = width / base.width;
          const viewport = page.getViewport({ scale: scale * (window.devicePixelRatio || 1) });
          const canvas = window.document.createElement('canvas');
          canvas.width = Math.ceil(viewport.width);
          canvas.height = Math.ceil(viewport.height);
          canvas.style.width = `${Math.floor(base.width * scale)}px`;
          canvas.style.display = 'block';
          canvas.style.margin = '0 auto 8px';
          canvas.setAttribute('role', 'img');
          canvas.setAttribute('aria-label', t('common.resourceView.pageOf', { page: n, pages: document.numPages }));
          canvas.dataset.page = String(n);
          host.appendChild(canvas);
          await page.render({ canvas, viewport }).promise;
        }
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [props.url, t]);

  return (
    <Stack gap="xs">
      {state === 'loading' && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('common.resourceView.pdfLoading')}</Text>
        </Group>
      )}
      {state === 'failed' && <Alert color="red">{t('common.resourceView.pdfFailed')}</Alert>}
      {typeof state === 'object' && (
        <Text size="sm" c="dimmed">
          {t('common.resourceView.pdfTitle', { name: props.name, count: state.pages })}
        </Text>
      )}
      <Paper withBorder bg="gray.1">
        {/* The pages scroll, so the viewport takes the keyboard's focus (arrow keys scroll it)
            and is named for what it shows: the canvases in it can take no focus themselves. */}
        <ScrollArea h={props.height ?? 600} viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': props.name }}>
          <div ref={container} data-testid="pdf-pages" style={{ padding: 8 }} />
        </ScrollArea>
      </Paper>
    </Stack>
  );
}
