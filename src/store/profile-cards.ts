import type { ProfileSource } from '../domain/profile.js';

/** What a card holds: the public profile's sources, birthdate included (the age is computed when shown). */
export type ProfileCard = Omit<ProfileSource, 'id'>;

/** A card as stored: a JSON array, a third the size of the same object with its field names. */
export function encodeCard(user: ProfileCard): string {
  return JSON.stringify([user.displayName, user.birthdate, user.gender, user.bio, user.interests, user.city, user.state, user.themeId, user.createdAt]);
}

export function decodeCard(id: number, json: string): ProfileSource {
  const [displayName, birthdate, gender, bio, interests, city, state, themeId, createdAt] = JSON.parse(json) as [
    string, string, string, string, string[], string, string, number, string,
  ];
  return { id, displayName, birthdate, gender, bio, interests, city, state, themeId, createdAt };
}
