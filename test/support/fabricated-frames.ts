/**
 * The frames (without their ids) of events a test put straight onto streams (event-publisher.ts): their
 * `data` is the test's own, not the service's, so the document's frames do not judge them.
 */
export const fabricatedFrames = new Set<string>();

/** Whether a frame as received (`{"id":"…",…}`) is one of them. */
export const isFabricated = (text: string) => fabricatedFrames.has(text.replace(/^\{"id":"[^"]*",/, '{'));
