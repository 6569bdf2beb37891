import type { ProfileSource } from '../domain/profile.js';

/** What a card holds: the public profile's sources, birthdate included (the age is computed when shown). */
export type ProfileCard = Omit<ProfileSource, 'id'>;

/** Where each field sits in a stored card. Appending keeps the cards already stored readable. */
const CARD_FIELDS = ['displayName', 'birthdate', 'gender', 'bio', 'interests', 'city', 'state', 'themeId', 'createdAt'] as const satisfies ReadonlyArray<keyof ProfileCard>;

/** Fails to compile while a field of the profile has no place in the card. */
type UnplacedCardFields = Exclude<keyof ProfileCard, (typeof CARD_FIELDS)[number]>;
const everyFieldPlaced: [UnplacedCardFields] extends [never] ? true : UnplacedCardFields = true;
void everyFieldPlaced;

/** A card as stored: a JSON array, a third the size of the same object with its field names. */
export function encodeCard(user: ProfileCard): string {
  return JSON.stringify(CARD_FIELDS.map((field) => user[field]));
}

export function decodeCard(id: number, json: string): ProfileSource {
  const values = JSON.parse(json) as unknown[];
  const card: Record<string, unknown> = { id };
  CARD_FIELDS.forEach((field, i) => (card[field] = values[i]));
  return card as ProfileSource;
}
