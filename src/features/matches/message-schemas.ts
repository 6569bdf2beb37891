import { z } from 'zod';
import { idSchema } from '../../platform/core/id-schema.js';
import { text } from '../../platform/core/text.js';

export const MESSAGE_MAX = 2000;

/** Body of `POST /matches/{id}/messages`. The text is kept as sent (trimmed, NFC, CRLF as \n) under the text policy (text.ts); nothing in it is interpreted. */
export const newMessageSchema = z.strictObject({ body: text({ min: 1, max: MESSAGE_MAX, multiline: true }) });

/** Body of `POST /matches/{id}/read`: the newest message the caller has read. */
export const readMarkSchema = z.strictObject({ message_id: idSchema });
