/**
 * Leaflet's own ES module build, typed as the package (@types/leaflet). leaflet-map.ts imports this file rather
 * than the package's UMD `main`: a CommonJS module would make the bundler put its interop helpers into a chunk
 * that every page then loads, the login page too.
 */
declare module 'leaflet/dist/leaflet-src.esm.js' {
  export * from 'leaflet';
}
