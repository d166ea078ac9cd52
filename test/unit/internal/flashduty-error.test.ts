// The root of everything the SDK throws (src/internal/flashduty-error.ts): `instanceof FlashdutyError`
// holds across copies of the SDK by a brand, subclasses keep the ordinary check; its JSON says what
// it carries, never headers or a body.
import { describe, expect, it } from 'vitest';
import { ConfigError, FlashdutyError, isFlashdutyError } from '../../../src/internal/flashduty-error.js';

describe('FlashdutyError', () => {
  it('is recognised across copies by its brand, subclasses by their prototype', () => {
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('flashduty-sdk.error')]: true });
    expect(fromAnotherCopy).toBeInstanceOf(FlashdutyError);
    expect(isFlashdutyError(fromAnotherCopy)).toBe(true);
    expect(fromAnotherCopy).not.toBeInstanceOf(ConfigError);
    expect(new ConfigError('bad')).toBeInstanceOf(FlashdutyError);
    expect(isFlashdutyError(new Error('plain'))).toBe(false);
  });

  it('shows its own fields as JSON, its URL included, headers and body left out', () => {
    const error = Object.assign(new FlashdutyError('failed', { url: 'https://x/?app_key=***', cause: 'c' }), {
      headers: new Headers(),
      body: 'big',
    });
    expect(error.toJSON()).toEqual({ name: 'FlashdutyError', message: 'failed', url: 'https://x/?app_key=***' });
    expect(error.cause).toBe('c');
  });
});
