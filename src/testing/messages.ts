// The mock's error messages in the languages the real service speaks, picked by Accept-Language.
// Like the real ones, they name the field at fault.

export type Locale = 'en' | 'zh';

const MESSAGES = {
  unauthorized: ['You are unauthorized.', '您未获得授权。'],
  expiredKey: ['The app_key has expired.', 'app_key 已过期。'],
  accessDenied: [
    'Access Denied: the app_key lacks the {permission} permission.',
    '无权访问：app_key 缺少 {permission} 权限。',
  ],
  contentType: ['Content-Type must be application/json.', 'Content-Type 必须是 application/json。'],
  badJson: ['The request body is not valid JSON.', '请求体不是合法的 JSON。'],
  tooLarge: ['The request body exceeds {limit} bytes.', '请求体超过 {limit} 字节。'],
  route: ['No route matches {path}.', '路径 {path} 不存在。'],
  method: ['Method {method} is not allowed on {path}.', '{path} 不支持 {method} 方法。'],
  tooFrequent: ['Request too frequently.', '请求过于频繁。'],
  required: ['Parameter {field} is required.', '参数 {field} 为必填项。'],
  type: ['Parameter {field} must be {type}.', '参数 {field} 必须是{type}。'],
  range: ['Parameter {field} must be between {min} and {max}.', '参数 {field} 必须介于 {min} 和 {max} 之间。'],
  min: ['Parameter {field} must be at least {min}.', '参数 {field} 不能小于 {min}。'],
  enum: ['Parameter {field} must be one of: {values}.', '参数 {field} 必须是以下值之一：{values}。'],
  maxLength: ['Parameter {field} must be at most {max} characters.', '参数 {field} 不能超过 {max} 个字符。'],
  endAfterStart: ['Parameter end_time must be greater than start_time.', '参数 end_time 必须大于 start_time。'],
  window: [
    'The window from start_time to end_time must not exceed 31 days.',
    'start_time 到 end_time 的时间范围不能超过 31 天。',
  ],
  depth: ['Parameter p × limit must not exceed 10000.', '参数 p × limit 不能超过 10000。'],
  cursor: ['Parameter search_after_ctx is not a cursor of this query.', '参数 search_after_ctx 不是本查询的游标。'],
  agentEnabled: ['A2A agent {id} is already enabled.', 'A2A 智能体 {id} 已经启用。'],
  agentMissing: ['A2A agent {id} was not found.', '未找到 A2A 智能体 {id}。'],
  skillMissing: ['Skill {id} was not found.', '未找到技能 {id}。'],
  notFound: ['Resource {id} was not found.', '未找到资源 {id}。'],
  referenceMissing: ['{kind} {id} named in {field} was not found.', '{field} 中的{kind} {id} 不存在。'],
  referenceExist: [
    '{kind} {id} is still referenced by {by} and cannot be deleted.',
    '{kind} {id} 仍被 {by} 引用，无法删除。',
  ],
  action: ['The request cannot be carried out: {reason}', '无法执行该请求：{reason}'],
  schema: ['Parameter {field} is invalid: {why}.', '参数 {field} 不合法：{why}。'],
  deliveryMissing: [
    'Webhook delivery {id} of integration {integration} was not found.',
    '未找到集成 {integration} 的 Webhook 推送记录 {id}。',
  ],
  internal: [
    'We encountered an internal error, and it has been reported. Please try again later.',
    '服务内部错误，已上报，请稍后重试。',
  ],
} as const;

const TYPES: Record<string, [string, string]> = {
  integer: ['an integer', '整数'],
  boolean: ['a boolean', '布尔值'],
  string: ['a string', '字符串'],
  array: ['an array', '数组'],
  'array of integers': ['an array of integers', '整数数组'],
  'array of strings': ['an array of strings', '字符串数组'],
};

/** What a reference names (world/references.ts), in each language. */
const KINDS: Record<string, [string, string]> = {
  member: ['Member', '成员'],
  team: ['Team', '团队'],
  channel: ['Channel', '协作空间'],
  schedule: ['Schedule', '排班'],
  role: ['Role', '角色'],
};

export type MessageKey = keyof typeof MESSAGES;

export function localeOf(acceptLanguage: string | null): Locale {
  return acceptLanguage?.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function message(key: MessageKey, locale: Locale, vars: Record<string, string | number> = {}): string {
  const index = locale === 'zh' ? 1 : 0;
  const type = typeof vars.type === 'string' ? TYPES[vars.type]?.[index] : undefined;
  const kind = typeof vars.kind === 'string' ? KINDS[vars.kind]?.[index] : undefined;
  const all: Record<string, string | number> = { ...vars, ...(type ? { type } : {}), ...(kind ? { kind } : {}) };
  return MESSAGES[key][index].replace(/\{(\w+)\}/g, (_, name: string) => String(all[name] ?? `{${name}}`));
}
