/** What a list request asks for: at most `limit` items, after position `after` (from the start when absent). */
export type PageRequest<C> = { limit: number; after?: C };

/** One page of a list: its items and where the next page starts (null on the last page). */
export type Page<T, C> = { items: T[]; next: C | null };
