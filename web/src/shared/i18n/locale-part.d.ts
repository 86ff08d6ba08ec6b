// `./en-gb.ts?part=public` and `?part=admin`: a part of a locale file (vite.config.ts, `localeParts`); without the
// build's plugin (unit tests under tsx) the whole file.
declare module '*.ts?part=public' {
  export const enGB: Record<string, unknown>;
  export const ruRU: Record<string, unknown>;
}
declare module '*.ts?part=admin' {
  export const enGB: Record<string, unknown>;
  export const ruRU: Record<string, unknown>;
}
