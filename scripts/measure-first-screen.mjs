#!/usr/bin/env node
// What a first visit to a screen costs on the wire, as Chromium counts it: the bytes of
// JavaScript, CSS and everything else transferred (compressed, as sent) until the page is
// idle. Starts nothing: point it at a running app.
//   node scripts/measure-first-screen.mjs http://127.0.0.1:3000/login-landing [more URLs]
import { chromium } from '@playwright/test';
import { execSync } from 'node:child_process';

const urls = process.argv.slice(2);
if (!urls.length) {
  console.error('usage: node scripts/measure-first-screen.mjs <url> [url…]');
  process.exit(2);
}
const executablePath =
  process.env.CHROMIUM_PATH ??
  execSync('command -v chromium || command -v chromium-browser', { shell: '/bin/sh' }).toString().trim();
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  for (const url of urls) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const types = new Map();
    const bytes = new Map();
    cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
    cdp.on('Network.loadingFinished', (event) => bytes.set(event.requestId, event.encodedDataLength));
    await page.goto(url, { waitUntil: 'networkidle' });
    const totals = {};
    for (const [id, length] of bytes) {
      const type = types.get(id) ?? 'Other';
      totals[type] = (totals[type] ?? 0) + length;
    }
    const kb = (n) => `${((n ?? 0) / 1024).toFixed(1)} kB`;
    console.log(
      `${url}\n  JavaScript ${kb(totals.Script)} · CSS ${kb(totals.Stylesheet)} · all ${kb(Object.values(totals).reduce((a, b) => a + b, 0))} (${bytes.size} responses)`,
    );
    await context.close();
  }
} finally {
  await browser.close();
}
