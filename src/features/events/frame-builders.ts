import type { EventBody } from './stored-event.js';

/** A stream entry that keeps a reference instead of its frame: its id and the reference as appended. */
export type StoredReference = { id: string; ref: string };

/**
 * Turns the references of one kind, read from the stream `key`, back into frames (JSON without the id),
 * by entry id. An entry left out has no frame any more (what it refers to is gone) and is skipped.
 */
export interface FrameBuilder {
  frames(key: string, entries: readonly StoredReference[]): Promise<ReadonlyMap<string, string>>;
}

/** Leaves out the frames of one stream that must not be shown now (they stay in the stream). */
export interface FrameScreen {
  screen(bodies: EventBody[]): Promise<EventBody[]>;
}

/** The field of an entry that stores its frame itself (lua/append_event-2.lua). */
export const WHOLE_FRAME = 'e';

/**
 * How the stored entries of the streams are turned back into frames: the feature that appends entries
 * keeping references (a kind of its own, the entry's field) registers the builder of their frames, for
 * every stream or for one; a feature may register a screen for a stream. The streams know no kind.
 */
export class FrameBuilders {
  private readonly builders = new Map<string, FrameBuilder>();
  private readonly screens = new Map<string, FrameScreen>();

  /** Builds the frames of entries of `kind` with `builder`: on the stream `stream` only when given (before a builder for every stream). */
  register(kind: string, builder: FrameBuilder, stream?: string): this {
    this.builders.set(stream === undefined ? kind : `${kind}@${stream}`, builder);
    return this;
  }

  /** Screens every page read from `stream` with `screen`. */
  screen(stream: string, screen: FrameScreen): this {
    this.screens.set(stream, screen);
    return this;
  }

  /**
   * The frames of raw stream entries, in order: an entry keeping its frame as it is, one keeping a
   * reference as its kind's builder makes it (skipped without one, or when the builder has none); then the
   * stream's screen, if any.
   */
  async bodiesOf(key: string, entries: ReadonlyArray<[string, string[]]>): Promise<EventBody[]> {
    const byKind = new Map<string, StoredReference[]>();
    for (const [id, [field = WHOLE_FRAME, ref = '']] of entries) {
      if (field !== WHOLE_FRAME) byKind.set(field, [...(byKind.get(field) ?? []), { id, ref }]);
    }
    const built = new Map<string, string>();
    await Promise.all(
      [...byKind].map(async ([kind, refs]) => {
        const builder = this.builders.get(`${kind}@${key}`) ?? this.builders.get(kind);
        if (builder) for (const [id, body] of await builder.frames(key, refs)) built.set(id, body);
      }),
    );
    const out: EventBody[] = [];
    for (const [id, [field = WHOLE_FRAME, value = '{}']] of entries) {
      const body = field === WHOLE_FRAME ? value : built.get(id);
      if (body !== undefined) out.push({ id, body });
    }
    const screen = this.screens.get(key);
    return screen ? screen.screen(out) : out;
  }
}
