// With msw installed, the testing entry's `handlers` are msw's own RequestHandler (not `any`), and
// go straight into setupServer. Type-checked only in the project that has msw.
import { setupServer } from 'msw/node';
import { createMockService } from 'flashduty-sdk/testing';

type IsAny<T> = 0 extends 1 & T ? true : false;
const service = createMockService({ seed: 1 });
export const handlersAreTyped: IsAny<(typeof service.handlers)[number]> = false;
export const server = setupServer(...service.handlers);
