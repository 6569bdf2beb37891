import type { ProfileSource } from './profile.js';
import { GENDERS } from './account-schemas.js';

/** What a card holds: the public profile's sources, birthdate included (the age is computed when shown). */
export type ProfileCard = Omit<ProfileSource, 'id'>;
/** What an account holds besides its card: what it signs in with. */
export type AccountSecrets = { email: string; passwordHash: string };

/** Between the parts of a stored account, and between the fields of a part: control characters no stored text holds. */
const PART = '\x1e';
const FIELD = '\x1f';

/** Where each field sits in a stored card's second part (the interests are its first). */
const CARD_FIELDS = ['displayName', 'birthdate', 'gender', 'bio', 'city', 'state', 'themeId', 'createdAt'] as const satisfies ReadonlyArray<keyof ProfileCard>;

/** Fails to compile while a field of the profile has no place in the card. */
type UnplacedCardFields = Exclude<keyof ProfileCard, (typeof CARD_FIELDS)[number] | 'interests'>;
const everyFieldPlaced: [UnplacedCardFields] extends [never] ? true : UnplacedCardFields = true;
void everyFieldPlaced;

/**
 * An account as stored (one hash field in its index partition, see keys.accounts): three parts separated
 * by U+001E, with no field names:
 *
 * 1. its interests as a JSON array: what a swipe reads (and hands to lua/record_swipe-5.lua as it is),
 *    taken without parsing the rest;
 * 2. the rest of its public profile card, fields by CARD_FIELDS position separated by U+001F: the
 *    birthdate as YYYYMMDD, the gender as its place in GENDERS, the creation time as ms;
 * 3. its e-mail and password hash, separated the same way: discovery reads only the first two parts
 *    (lua/browse-2+.lua cuts the third off in Redis).
 *
 * No stored text can hold either separator (src/platform/core/text.ts refuses control characters; e-mails and
 * password hashes have none), and encoding refuses one that does.
 */
export function encodeAccount(card: ProfileCard, secrets: AccountSecrets): string {
  const fields = CARD_FIELDS.map((field) => {
    switch (field) {
      case 'birthdate':
        return card.birthdate.replaceAll('-', '');
      case 'gender':
        return String(GENDERS.indexOf(card.gender));
      case 'createdAt':
        return String(Date.parse(card.createdAt));
      default:
        return String(card[field]);
    }
  });
  const parts = [JSON.stringify(card.interests), fields.join(FIELD), [secrets.email, secrets.passwordHash].join(FIELD)];
  if ([...fields, secrets.email, secrets.passwordHash].some((value) => value.includes(PART) || value.includes(FIELD))) {
    throw new Error('an account field holds a separator control character');
  }
  return parts.join(PART);
}

/** The public profile of a stored account (its first two parts; the third, if given, is not read). */
export function decodeCard(id: number, stored: string): ProfileSource {
  const [interests = '[]', rest = ''] = stored.split(PART, 2);
  const values = rest.split(FIELD);
  const card: Record<string, unknown> = { id, interests: JSON.parse(interests) as string[] };
  CARD_FIELDS.forEach((field, i) => {
    const value = values[i] ?? '';
    switch (field) {
      case 'birthdate':
        card[field] = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
        break;
      case 'gender':
        card[field] = GENDERS[Number(value)];
        break;
      case 'themeId':
        card[field] = Number(value);
        break;
      case 'createdAt':
        card[field] = new Date(Number(value)).toISOString();
        break;
      default:
        card[field] = value;
    }
  });
  return card as ProfileSource;
}

/** A stored account whole: its public profile and its secrets. */
export function decodeAccount(id: number, stored: string): ProfileSource & AccountSecrets {
  const [email = '', passwordHash = ''] = stored.slice(stored.lastIndexOf(PART) + 1).split(FIELD);
  return { ...decodeCard(id, stored), email, passwordHash };
}

/** The interests of a stored account as stored: a JSON array. */
export const storedInterests = (stored: string): string => stored.slice(0, stored.indexOf(PART));

/**
 * The gender (its place in GENDERS) and birthdate (YYYYMMDD) of a stored account, read where they sit
 * without decoding the rest: what a swipe tells discovery of its target.
 */
export function storedGenderAndBirth(stored: string): { gender: number; birth: number } {
  const nameEnd = stored.indexOf(FIELD, stored.indexOf(PART) + 1);
  const birthEnd = stored.indexOf(FIELD, nameEnd + 1);
  const genderEnd = stored.indexOf(FIELD, birthEnd + 1);
  return { gender: Number(stored.slice(birthEnd + 1, genderEnd)), birth: Number(stored.slice(nameEnd + 1, birthEnd)) };
}
