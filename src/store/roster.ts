import { GENDERS } from '../domain/account-schemas.js';

/**
 * An account's roster code (keys.roster): its birthdate as YYYYMMDD × 10 plus its gender's place in
 * GENDERS, one integer, so a roster bucket stays a small listpack of integers. The places are part of
 * the stored layout: a new gender goes at the end of GENDERS.
 */
export const rosterCode = (birth: number, gender: string): number => birth * 10 + genderCode(gender);

/** A gender's place in GENDERS, as roster codes carry it. */
export function genderCode(gender: string): number {
  const code = (GENDERS as readonly string[]).indexOf(gender);
  if (code < 0) throw new Error(`no roster code for gender ${gender}`);
  return code;
}
