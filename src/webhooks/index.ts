export const WEBHOOK_PLACEHOLDER = 1;
