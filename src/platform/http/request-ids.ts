import { randomBytes } from 'node:crypto';

const GIVEN_ID = /^[\w.-]{1,64}$/;

/**
 * Request ids: the client's `X-Request-Id` when it is a sane token, else `<process prefix>-<counter>`
 * (unique across the processes of a deployment, and cheap: no randomness per request).
 */
export class RequestIds {
  private readonly prefix = randomBytes(3).toString('hex');
  private counter = 0;

  next(given: string | undefined): string {
    return given && GIVEN_ID.test(given) ? given : `${this.prefix}-${(++this.counter).toString(36)}`;
  }
}
