// Opens the user's editor ($VISUAL, else $EDITOR) on a temporary file holding `text` and returns
// what they saved. The editor line may carry its own options ("code --wait"), so it runs through
// the shell with the file name quoted. The file lives in a private temp folder, removed after.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The editor the environment names, or undefined. */
export function editorFrom(env: NodeJS.ProcessEnv): string | undefined {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

export async function editInEditor(editor: string, text: string, fileName = 'arguments.json'): Promise<{ text: string } | { error: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tooldesk-edit-'));
  const file = join(dir, fileName);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const quoted = `'${file.replace(/'/g, `'\\''`)}'`;
    const exit = await new Promise<{ code: number | null; error?: string }>((resolve) => {
      const child = spawn(`${editor} ${quoted}`, { shell: true, stdio: 'inherit' });
      child.once('error', (error) => resolve({ code: null, error: error.message }));
      child.once('exit', (code) => resolve({ code }));
    });
    if (exit.error) return { error: `the editor "${editor}" could not start: ${exit.error}` };
    if (exit.code !== 0) return { error: `the editor "${editor}" exited with code ${exit.code}` };
    return { text: readFileSync(file, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
