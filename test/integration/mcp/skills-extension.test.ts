// Skills over MCP (issue 34), the SDK on each side: `tooldesk mcp serve` answers the skills
// extension's list with every enabled skill and a SHA-256 per file (checked by the SDK's
// SkillsClient, which verifies what it reads), and Tooldesk lists the skills of an SDK
// SkillsExtension server it is connected to, labelled with that server.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectStdio, serveHome } from '../../support/mcp-serve-harness.ts';
import { removeScratch, repoRoot, runCli, scratchInCheckout } from '../../support/run-cli.ts';
import { copyFixtureSkill, writeSkill } from '../../support/skill-fixtures.ts';

vi.setConfig({ testTimeout: 90_000 });
afterAll(() => removeScratch());

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('mcp serve: the skills extension', () => {
  it('lists every enabled skill with a SHA-256 per file; a disabled one is not served', async () => {
    const serve = serveHome();
    const userHome = join(serve.home, '..', 'user');
    mkdirSync(userHome, { recursive: true });
    serve.env.HOME = userHome;
    const pdf = copyFixtureSkill('pdf', join(serve.home, 'skills'));
    writeSkill(join(userHome, '.agents/skills'), 'notes', { name: 'notes', description: 'Keeps notes.' }, 'Write notes.\n', { 'references/how.md': '# How\n' });
    writeSkill(join(userHome, '.agents/skills'), 'hidden', { name: 'hidden', description: 'Switched off.' });
    const settings = JSON.parse(readFileSync(join(serve.home, 'settings.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify({ ...settings, skills: { hidden: { enabled: false } } }));
    const { client, transport } = await connectStdio(serve);
    try {
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      const { skills: entries } = await skills.list();
      expect(entries.map((e) => e.frontmatter.name).sort()).toEqual(['notes', 'pdf']);
      const entry = entries.find((e) => e.frontmatter.name === 'pdf')!;
      expect(entry.frontmatter.description).toMatch(/^Work with PDF files/);
      const resources = entry.resources as Array<{ uri: string; digest: string; size: number }>;
      const script = resources.find((r) => r.uri.endsWith('/scripts/check_fillable_fields.py'))!;
      expect(script.digest.replace(/^sha256:/, '')).toBe(sha256(join(pdf, 'scripts/check_fillable_fields.py')));
      expect(resources.length).toBe(5); // every file of the skill, SKILL.md included
      // Reading goes through the client's digest check.
      const manifest = await skills.read(entry);
      expect(manifest.verified).toBe(true);
      expect(manifest.body).toContain('# PDF Processing Guide');
      const file = await skills.read(entry, 'scripts/check_fillable_fields.py');
      expect(new TextDecoder().decode(file.bytes)).toContain('This PDF has fillable form fields');
      // The variables are still resources beside the skills.
      expect((await client.listResources()).resources).toEqual([]);
    } finally {
      await transport.close();
      serve.cleanup();
    }
  });
});

describe('mcp serve --toolset naming skills', () => {
  it('serves and offers only the skills the set names, and warns of one that is gone', async () => {
    const serve = serveHome();
    const userHome = join(serve.home, '..', 'user');
    serve.env.HOME = userHome;
    writeSkill(join(userHome, '.agents/skills'), 'notes', { name: 'notes', description: 'Keeps notes.' });
    writeSkill(join(userHome, '.agents/skills'), 'drafts', { name: 'drafts', description: 'Writes drafts.' });
    const settings = JSON.parse(readFileSync(join(serve.home, 'settings.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify({ ...settings, toolSets: [{ name: 'noting', skills: ['notes', 'gone'] }] }));
    const { client, transport, stderr } = await connectStdio(serve, { args: ['--toolset', 'noting'] });
    try {
      const { skills: entries } = await new SkillsClient(client).list();
      expect(entries.map((e) => e.frontmatter.name)).toEqual(['notes']);
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['ListVars', 'ReadVar', 'activate_skill', 'read_skill_file', 'run_skill_python', 'run_skill_script']);
      expect((tools.find((t) => t.name === 'activate_skill')!.inputSchema.properties as { name: { enum: string[] } }).name.enum).toEqual(['notes']);
      expect(stderr()).toContain('tooldesk mcp serve: warning: tool set "noting": skill:gone is not loaded or switched off now');
    } finally {
      await transport.close();
      serve.cleanup();
    }
  });
});

describe("Tooldesk as a skills host", () => {
  it("lists an SDK SkillsExtension server's skills, labelled with the server", async () => {
    const serve = serveHome([]);
    const served = scratchInCheckout('skills-server-');
    writeSkill(served, 'remote-helper', { name: 'remote-helper', description: 'Helps from afar.' }, 'Remote instructions.\n', { 'scripts/x.py': 'print(1)\n' });
    const settings = {
      mcpServers: { skillsrv: { command: process.execPath, args: [join(repoRoot, 'test/fixtures/mcp/skills-server.mjs'), served] } },
      groupDefaults: { skillsrv: true },
    };
    writeFileSync(join(serve.home, 'settings.json'), JSON.stringify(settings));
    try {
      const listed = await runCli(serve.home, ['skills', 'list', '--mcp', '--json'], '', { HOME: join(serve.home, '..') });
      expect(listed.code, listed.stderr).toBe(0);
      const { skills } = JSON.parse(listed.stdout) as { skills: Array<{ name: string; origin: string; description: string; files: number; enabled: boolean }> };
      expect(skills).toContainEqual(expect.objectContaining({ name: 'remote-helper', origin: 'mcp:skillsrv', description: 'Helps from afar.', files: 2, enabled: false }));
    } finally {
      serve.cleanup();
    }
  });
});
