// A Worker whose receiver answers within 300 ms while a handler runs on (3 s): in workerd a
// request's timers are cancelled once it is answered, so a deadline must not hang on a timer that an
// earlier, quicker request set. `/hooks` is the receiver's fetchHandler.
import { WebhookReceiver } from '../../../../dist/webhooks/index.js';

const receiver = new WebhookReceiver({ ackTimeoutMs: 300, logger: false });
receiver.on('event', async (event) => {
  if (event.event_id.startsWith('slow')) await new Promise((resolve) => setTimeout(resolve, 3000));
});

export default {
  fetch: (request: Request): Promise<Response> => receiver.fetchHandler(request),
};
