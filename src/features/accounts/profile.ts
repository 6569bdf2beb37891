import { z } from 'zod';
import { GENDERS } from './account-schemas.js';
import { ageOn } from '../../platform/core/dates.js';

/**
 * An account's profile as the service keeps it: the fields of the account hash and of the compact profile
 * card (features/accounts/profile-cards.ts). Every internal shape of a profile is derived from this schema, so a field
 * added here reaches them all or fails to compile where a shape is stored or shown.
 */
export const profileSourceSchema = z.object({
  id: z.number().int(),
  displayName: z.string(),
  birthdate: z.string(),
  gender: z.enum(GENDERS),
  bio: z.string(),
  interests: z.array(z.string()),
  city: z.string(),
  state: z.string(),
  themeId: z.number().int(),
  createdAt: z.string(),
});

/** What the domain needs of an account to show it. */
export type ProfileSource = z.output<typeof profileSourceSchema>;

/** A wire field name (snake_case) as the profile spells it (camelCase): `theme_id` → `themeId`. */
export type ProfileFieldOf<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<ProfileFieldOf<Tail>>}` : S;

const source = profileSourceSchema.shape;

/**
 * The public profile on the wire (accounts/account-api.ts adds its OpenAPI name): the source's fields under their wire
 * names, the age in place of the birthdate, the gender as plain text.
 */
export const publicProfileSchema = z.object({
  id: source.id,
  display_name: source.displayName,
  age: z.number().int(),
  gender: z.string(),
  bio: source.bio,
  interests: source.interests.meta({
    description: 'Canonical interest names: "ML, Hikes" is stored as ["machine learning", "hiking"], so synonyms, abbreviations and word forms match.',
  }),
  city: source.city,
  state: source.state,
  theme_id: source.themeId,
  created_at: source.createdAt,
});

export type PublicProfile = z.output<typeof publicProfileSchema>;

/** The owner's own profile on the wire. */
export const ownProfileSchema = publicProfileSchema.extend({ email: z.string(), birthdate: z.string(), is_agent: z.boolean() });

export type OwnProfile = z.output<typeof ownProfileSchema>;

/** The profile anyone in the same pool may see: no e-mail, no birthdate, no secrets. */
export function publicProfile(user: ProfileSource, now = new Date()): PublicProfile {
  return {
    id: user.id,
    display_name: user.displayName,
    age: ageOn(user.birthdate, now),
    gender: user.gender,
    bio: user.bio,
    interests: user.interests,
    city: user.city,
    state: user.state,
    theme_id: user.themeId,
    created_at: user.createdAt,
  };
}

/** The owner's own view: the public profile plus e-mail, birthdate and pool. */
export function ownProfile(user: ProfileSource & { email: string; pool: string }, now = new Date()): OwnProfile {
  return { ...publicProfile(user, now), email: user.email, birthdate: user.birthdate, is_agent: user.pool === 'agent' };
}
