import type { ProfileSource } from '../domain/profile.js';

/** What a card holds: the public profile's sources, birthdate included (the age is computed when shown). */
export type ProfileCard = Omit<ProfileSource, 'id'>;
/** What an account holds besides its card: what it signs in with. */
export type AccountSecrets = { email: string; passwordHash: string };

/** Where each field sits in a stored card's second line (the interests are its first line). */
const CARD_FIELDS = ['displayName', 'birthdate', 'gender', 'bio', 'city', 'state', 'themeId', 'createdAt'] as const satisfies ReadonlyArray<keyof ProfileCard>;

/** Fails to compile while a field of the profile has no place in the card. */
type UnplacedCardFields = Exclude<keyof ProfileCard, (typeof CARD_FIELDS)[number] | 'interests'>;
const everyFieldPlaced: [UnplacedCardFields] extends [never] ? true : UnplacedCardFields = true;
void everyFieldPlaced;

/**
 * An account as stored (one hash field in its index partition, see keys.accounts): three lines of JSON
 * (JSON never holds a raw line break), with no field names:
 *
 * 1. its interests, an array: what a swipe reads, taken without parsing the rest;
 * 2. the rest of its public profile card, an array by CARD_FIELDS position (creation time as ms);
 * 3. its e-mail and password hash: discovery reads only the first two lines (lua/browse.lua cuts the
 *    third off in Redis).
 */
export function encodeAccount(card: ProfileCard, secrets: AccountSecrets): string {
  const fields = CARD_FIELDS.map((field) => (field === 'createdAt' ? Date.parse(card.createdAt) : card[field]));
  return `${JSON.stringify(card.interests)}\n${JSON.stringify(fields)}\n${JSON.stringify([secrets.email, secrets.passwordHash])}`;
}

/** The public profile of a stored account (its first two lines; the third, if given, is not read). */
export function decodeCard(id: number, stored: string): ProfileSource {
  const first = stored.indexOf('\n');
  const second = stored.indexOf('\n', first + 1);
  const values = JSON.parse(stored.slice(first + 1, second === -1 ? undefined : second)) as unknown[];
  const card: Record<string, unknown> = { id, interests: JSON.parse(stored.slice(0, first)) as string[] };
  CARD_FIELDS.forEach((field, i) => (card[field] = field === 'createdAt' ? new Date(values[i] as number).toISOString() : values[i]));
  return card as ProfileSource;
}

/** A stored account whole: its public profile and its secrets. */
export function decodeAccount(id: number, stored: string): ProfileSource & AccountSecrets {
  const [email, passwordHash] = JSON.parse(stored.slice(stored.lastIndexOf('\n') + 1)) as [string, string];
  return { ...decodeCard(id, stored), email, passwordHash };
}

/** The interests of a stored account as stored: a JSON array. */
export const storedInterests = (stored: string): string => stored.slice(0, stored.indexOf('\n'));
