// The mock's messages in the service's two languages, picked by Accept-Language, naming the field.
import { describe, expect, it } from 'vitest';
import { localeOf, message } from '../../../src/testing/messages.js';

describe('messages', () => {
  it('speaks Chinese to a zh Accept-Language, English to anything else', () => {
    expect(localeOf('zh-CN,zh;q=0.9')).toBe('zh');
    expect(localeOf(' ZH ')).toBe('zh');
    expect(localeOf('en-US')).toBe('en');
    expect(localeOf('fr, zh')).toBe('en');
    expect(localeOf(null)).toBe('en');
  });

  it('fills in the values, the type in the caller’s words, and leaves an unknown one as written', () => {
    expect(message('range', 'en', { field: 'limit', min: 0, max: 100 })).toBe(
      'Parameter limit must be between 0 and 100.',
    );
    expect(message('type', 'en', { field: 'asc', type: 'boolean' })).toBe('Parameter asc must be a boolean.');
    expect(message('type', 'zh', { field: 'asc', type: 'boolean' })).toBe('参数 asc 必须是布尔值。');
    expect(message('required', 'en')).toBe('Parameter {field} is required.');
  });
});
