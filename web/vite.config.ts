import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PUBLIC_NAMESPACES } from './src/shared/i18n/parts.ts';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/**
 * `src/shared/i18n/<locale>.ts?part=public|admin` (i18n/index.ts loads them): the locale file with only the
 * top-level namespaces of that part (i18n/parts.ts), so the public pages download a fraction of the texts.
 */
function localeParts(): Plugin {
  const publicNs = new Set(PUBLIC_NAMESPACES);
  return {
    name: 'smartconnect:locale-parts',
    enforce: 'post',
    transform(code, id) {
      const part = /\/shared\/i18n\/[a-z]{2}-[a-z]{2}\.ts\?part=(public|admin)$/.exec(id)?.[1];
      if (!part) return;
      const program = this.parse(code) as unknown as { body: Node[] };
      const texts = program.body
        .filter((n) => n.type === 'ExportNamedDeclaration')
        .flatMap((n) => ((n.declaration as Node | null)?.declarations as Node[] | undefined) ?? [])
        .map((d) => d.init as Node)
        .find((init) => init?.type === 'ObjectExpression');
      if (!texts) this.error(`${id}: no exported object of texts`);
      let out = '';
      let at = 0;
      for (const p of texts.properties as Node[]) {
        const key = p.key as Node & { name?: string; value?: string };
        if (publicNs.has(key.name ?? key.value ?? '') === (part === 'public')) continue;
        let end = p.end;
        while (/\s/.test(code[end] ?? '')) end++;
        if (code[end] === ',') end++;
        out += code.slice(at, p.start);
        at = end;
      }
      return { code: out + code.slice(at), map: { mappings: '' } };
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    localeParts(),
    VitePWA({
      // §4: registered at /service-worker.js with scope /; a waiting version asks to refresh.
      filename: 'service-worker.js',
      registerType: 'prompt',
      injectRegister: false,
      scope: '/',
      manifest: {
        name: 'SmartConnect',
        short_name: 'SmartConnect',
        theme_color: '#4263eb',
        background_color: '#f8f9fa',
        display: 'standalone',
        start_url: '/',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/widget/, /^\/landing/],
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        cleanupOutdatedCaches: true,
        // Web push (issue 34): the 'push' and 'notificationclick' handlers, a static file of web/public.
        importScripts: ['/push-sw.js'],
      },
    }),
  ],
  resolve: {
    alias: [
      // react-router's package exports resolve to its development build (warnings, invariant texts: more bytes on
      // every page); the production build is the same API.
      {
        find: /^react-router$/,
        replacement: fileURLToPath(
          new URL('../node_modules/react-router/dist/production/index.mjs', import.meta.url),
        ),
      },
    ],
  },
  server: { proxy: { '/api': { target: 'http://localhost:3000', ws: true } } },
  // The manifest maps each source module to its chunk and CSS: scripts/page-weight.mjs sums what a page downloads.
  // Two pages: the app (index.html) and the light landing page (landing.html, no React: issue 19's 50 KB budget).
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    manifest: true,
    // Terser with two passes: 2% less to download than esbuild's minifier (issue 12's login page weight), for a
    // slower build.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 } },
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        landing: fileURLToPath(new URL('landing.html', import.meta.url)),
      },
    },
  },
});
