import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { precompress } from './scripts/precompress.ts';

/** public/CONTEXT.md documents the folder for developers; it is not a file to serve (issue 11). */
const keepDocsOutOfDist = {
  name: 'keep-docs-out-of-dist',
  apply: 'build' as const,
  closeBundle() {
    rmSync(resolve('dist/CONTEXT.md'), { force: true });
  },
};

export default defineConfig({
  plugins: [
    react(),
    keepDocsOutOfDist,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'Рейс',
        short_name: 'Рейс',
        description: 'Диспетчеризация перевозок: задачи, рейсы и отчёты водителей',
        lang: 'ru',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1f4e79',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'] },
      devOptions: { enabled: false },
    }),
    // Last: brotli and gzip copies of what the steps above wrote, sw.js included (the server sends them).
    precompress(),
  ],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
