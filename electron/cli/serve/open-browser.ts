// `--open`: hands the URL to the system's browser. Best effort; failures are reported, not fatal.
import { openWithSystem } from '../../runtime/base/open-with-system.ts';

export const openInBrowser = (url: string, platform: NodeJS.Platform = process.platform): Promise<boolean> => openWithSystem(url, platform);
