import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './project-root.ts';

export const VERSION: string = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version;
