// The browser build in a real headless Chromium (Debian's package, driven by playwright-core):
// the ESM dist bundled for the browser, the mock service through MSW's service worker.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '../../..');
const DIST: Record<string, string> = {
  'flashduty-sdk': 'dist/index.js',
  'flashduty-sdk/webhooks': 'dist/webhooks/index.js',
  'flashduty-sdk/testing': 'dist/testing/index.js',
};

let server: Server | undefined;
afterAll(() => server?.close());

it(
  'lists, iterates and maps errors in Chromium, and refuses to construct without the opt-in',
  { timeout: 90_000 },
  async () => {
    const bundle = await build({
      entryPoints: [path.join(root, 'test/integration/package/browser-app.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      external: ['node:*'],
      logLevel: 'silent',
      plugins: [
        {
          name: 'built-package',
          setup(b) {
            // The built ESM files, as a user's bundler would pick them from the package.
            b.onResolve({ filter: /^flashduty-sdk(\/\w+)?$/ }, (args) => ({
              path: path.join(root, DIST[args.path] as string),
            }));
          },
        },
      ],
    });
    const files: Record<string, [string, string]> = {
      '/': ['text/html', '<!doctype html><html><body><script type="module" src="/app.js"></script></body></html>'],
      '/app.js': ['text/javascript', bundle.outputFiles[0]?.text ?? ''],
      '/mockServiceWorker.js': [
        'text/javascript',
        readFileSync(path.join(root, 'node_modules/msw/lib/mockServiceWorker.js'), 'utf8'),
      ],
    };
    server = createServer((req, res) => {
      const file = files[req.url ?? ''];
      res.writeHead(file ? 200 : 404, { 'Content-Type': file?.[0] ?? 'text/plain' }).end(file?.[1] ?? 'not found');
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    try {
      const page = await browser.newPage();
      const logs: string[] = [];
      page.on('console', (message) => logs.push(message.text()));
      page.on('pageerror', (error) => logs.push(String(error)));
      await page.goto(origin);
      await page.waitForFunction(() => window.__result !== undefined, undefined, { timeout: 60_000 });
      const result = (await page.evaluate(() => window.__result)) as Record<string, unknown>;
      expect(result.failed, logs.join('\n')).toBeUndefined();
      expect(result.guard).toMatch(/browser/);
      for (const baseUrl of [origin, 'https://api.flashcat.cloud']) {
        const run = result[baseUrl] as { firstPage: number; total: number; iterated: number; requestId: string };
        expect(run.firstPage).toBe(25);
        expect(run.iterated).toBe(run.total);
        expect(run.total).toBe(result.expected);
        expect(run.requestId).toMatch(/^[0-9a-f]{32}$/);
      }
      expect(result.error).toEqual({
        isInvalidParameter: true,
        isAPIError: true,
        name: 'InvalidParameterError',
        status: 400,
      });
    } finally {
      await browser.close();
    }
  },
);

declare global {
  interface Window {
    __result?: Record<string, unknown>;
  }
}
