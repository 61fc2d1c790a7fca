import { describe, expect, it } from 'vitest';
import { parsePromptCommand } from '../../../shared/prompt-command.ts';

describe('/server:prompt commands', () => {
  it('reads the server, the prompt and name=value arguments, quoted or bare', () => {
    expect(parsePromptCommand('/ev:simple-prompt')).toEqual({ server: 'ev', prompt: 'simple-prompt', args: {} });
    expect(parsePromptCommand('  /ev:args city=Paris state="Ile de France"  ')).toEqual({ server: 'ev', prompt: 'args', args: { city: 'Paris', state: 'Ile de France' } });
    expect(parsePromptCommand(`/a.b:p q='it "is"' r="say \\"hi\\"" s= t=x=y`)).toEqual({ server: 'a.b', prompt: 'p', args: { q: 'it "is"', r: 'say "hi"', s: '', t: 'x=y' } });
    expect(parsePromptCommand('/ev:p text="line one\nline two"')).toEqual({ server: 'ev', prompt: 'p', args: { text: 'line one\nline two' } });
  });

  it('names such as constructor or __proto__ are plain argument names', () => {
    const parsed = parsePromptCommand('/ev:p constructor=1 __proto__=2') as { args: Record<string, string> };
    expect(Object.keys(parsed.args)).toEqual(['constructor', '__proto__']);
    expect(Object.getPrototypeOf(parsed.args)).toBe(Object.prototype);
  });

  it('says what is wrong with the arguments', () => {
    expect(parsePromptCommand('/ev:p Paris')).toEqual({ error: expect.stringMatching(/"Paris" is not an argument: write arguments as name=value/) });
    expect(parsePromptCommand('/ev:p a="open')).toEqual({ error: 'the value of a has no closing "' });
    expect(parsePromptCommand('/ev:p a="x"b=1')).toEqual({ error: 'put a space after the closing " of a' });
    expect(parsePromptCommand('/ev:p a=1 a=2')).toEqual({ error: 'a is given twice' });
  });

  it('is not a prompt command: a /tool, plain text, a path', () => {
    expect(parsePromptCommand('/echo {"a":1}')).toBeNull();
    expect(parsePromptCommand('hello /ev:p')).toBeNull();
    expect(parsePromptCommand('/usr/local:bin')).toBeNull();
    expect(parsePromptCommand('/ev: p')).toBeNull();
  });
});
