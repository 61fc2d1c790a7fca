import { describe, expect, it } from 'vitest';
import { composerKeyAction } from '../../../renderer/src/chat/composer/composer-keys.ts';

const key = (k: string, more: { shiftKey?: boolean; isComposing?: boolean } = {}) => ({ key: k, shiftKey: false, isComposing: false, ...more });
const open = { open: true, exact: false };
const closed = { open: false, exact: false };

describe('composerKeyAction', () => {
  it('sends on Enter and leaves Shift+Enter and composing Enter to the box', () => {
    expect(composerKeyAction(key('Enter'), closed)).toBe('send');
    expect(composerKeyAction(key('Enter', { shiftKey: true }), closed)).toBeNull();
    expect(composerKeyAction(key('Enter', { isComposing: true }), closed)).toBeNull();
    expect(composerKeyAction(key('a'), closed)).toBeNull();
  });

  it('leaves arrows, Tab and Escape alone while no menu shows (Escape then stops the turn upstream)', () => {
    for (const k of ['ArrowDown', 'ArrowUp', 'Tab', 'Escape']) expect(composerKeyAction(key(k), closed)).toBeNull();
  });

  it('moves, completes and closes the open menu', () => {
    expect(composerKeyAction(key('ArrowDown'), open)).toBe('pick-next');
    expect(composerKeyAction(key('ArrowUp'), open)).toBe('pick-previous');
    expect(composerKeyAction(key('Tab'), open)).toBe('complete');
    expect(composerKeyAction(key('Enter'), open)).toBe('complete');
    expect(composerKeyAction(key('Escape'), open)).toBe('close-menu');
  });

  it('sends a command typed in full on Enter, though Tab still completes it', () => {
    const exact = { open: true, exact: true };
    expect(composerKeyAction(key('Enter'), exact)).toBe('send');
    expect(composerKeyAction(key('Tab'), exact)).toBe('complete');
    expect(composerKeyAction(key('Enter', { shiftKey: true }), exact)).toBeNull();
  });
});
