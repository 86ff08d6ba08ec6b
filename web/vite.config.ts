import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  plugins: [
    react(),
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
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        landing: fileURLToPath(new URL('landing.html', import.meta.url)),
      },
    },
  },
});
