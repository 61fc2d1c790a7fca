// Load hook of trace-modules.mjs (runs on Node's loader thread).
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}
export async function load(url, context, next) {
  if (!url.startsWith('node:')) appendFileSync(file, `${url}\n`);
  return next(url, context);
}
