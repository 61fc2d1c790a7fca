// The user docs the app links to: pages of the repository's `docs/` folder, named by their path
// under it ("mcp/servers.md"). The "?" of each Settings section and the how-to-fix link of each
// tool diagnostic name one; the runtime opens it (api.openDocs). A test checks every page named
// here exists, so a moved page breaks the suite, not the link.
import { UNTRUSTED_FOLDER_CODE, type Diagnostic, type ToolFormat } from './tools.ts';

/** A page path under docs/: lower-case words, sub-folders, `.md` (README.md too). */
export const DOCS_PAGE_PATTERN = /^(?:[a-z0-9-]+\/)*(?:[a-z0-9-]+|README)\.md$/;

/** The page that explains each tool format (where its diagnostics send the user). */
export const FORMAT_DOCS: Record<ToolFormat, string> = {
  builtin: 'variables.md',
  python: 'tools/python-powershell.md',
  powershell: 'tools/python-powershell.md',
  'open-webui': 'tools/open-webui.md',
  script: 'tools/script-folders.md',
  'three-layer': 'tools/three-layer.md',
  module: 'tools/modules.md',
  mcp: 'mcp/servers.md',
  skill: 'tools/skills.md',
};

/** Tool problems that belong to no format (an unreadable or untrusted folder): the formats' overview. */
export const TOOLS_DOCS = 'tools/README.md';
/** Project tool folders and their trust. */
export const TRUST_DOCS = 'security.md';

/** The page a diagnostic's how-to-fix link opens: its own, else by what kind of problem it is. */
export function diagnosticDocs(d: Diagnostic): string {
  return d.docs ?? (d.code === UNTRUSTED_FOLDER_CODE ? TRUST_DOCS : TOOLS_DOCS);
}
