import { ageOn } from './dates.js';

/** What the domain needs of an account to show it. */
export type ProfileSource = {
  id: number;
  displayName: string;
  birthdate: string;
  gender: string;
  bio: string;
  interests: string[];
  city: string;
  state: string;
  themeId: number;
  createdAt: string;
};

export type PublicProfile = {
  id: number;
  display_name: string;
  age: number;
  gender: string;
  bio: string;
  interests: string[];
  city: string;
  state: string;
  theme_id: number;
  created_at: string;
};

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
export function ownProfile(user: ProfileSource & { email: string; pool: string }, now = new Date()) {
  return { ...publicProfile(user, now), email: user.email, birthdate: user.birthdate, is_agent: user.pool === 'agent' };
}
