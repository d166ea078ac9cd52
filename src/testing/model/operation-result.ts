// What the model's rules give the router for a call, whatever the operation: the `data` of a
// success, or a refusal, as the error code and the message key (messages.ts) with its values; the
// router makes the envelope, in the caller's language.

import type { MessageKey } from '../messages.js';

/** A refusal for an invalid parameter (InvalidParameter): the message key and its values. */
export interface Refusal {
  key: MessageKey;
  vars?: Record<string, string | number>;
}

/** The `data` of a success, or the code and message of a refusal. */
export type OperationResult =
  | { data: unknown }
  | {
      code: 'InvalidParameter' | 'ResourceNotFound' | 'ReferenceExist' | 'Unauthorized';
      key: MessageKey;
      vars?: Record<string, string | number>;
    };
