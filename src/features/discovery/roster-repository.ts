import type { RedisClient } from '../../platform/redis/redis.js';
import { GENDERS } from '../accounts/index.js';
import type { Pool } from '../../platform/core/pool.js';
import { INDEX_PARTITIONS, indexPartition, ROSTER_BUCKET_SPAN, rosterBucket, rosterSlot } from '../../platform/redis/key-space.js';
import { keys } from '../../platform/redis/keys.js';

/** The width of a roster slot: a code as an unsigned 32-bit big-endian integer (0: no account). */
export const ROSTER_CODE_BYTES = 4;

/**
 * An account's roster code (keys.roster): its birthdate as YYYYMMDD × 10 plus its gender's place in
 * GENDERS, one integer (never 0), so a roster bucket is a plain array of fixed-width slots. The places
 * are part of the stored layout: a new gender goes at the end of GENDERS.
 */
export const rosterCode = (birth: number, gender: string): number => birth * 10 + genderCode(gender);

/** A gender's place in GENDERS, as roster codes carry it. */
export function genderCode(gender: string): number {
  const code = (GENDERS as readonly string[]).indexOf(gender);
  if (code < 0) throw new Error(`no roster code for gender ${gender}`);
  return code;
}

/** Where account `id`'s code sits: its roster bucket's key and the byte offset of its slot. */
export function rosterEntry(pool: Pool, id: number): { key: string; bucket: number; offset: number } {
  const bucket = rosterBucket(id);
  return { key: keys.roster(pool, indexPartition(id), bucket), bucket, offset: rosterSlot(id) * ROSTER_CODE_BYTES };
}

/** The code in slot `slot` of bytes read from a bucket starting at slot `from` (0 past their end). */
export function codeAt(bytes: Buffer, from: number, slot: number): number {
  const at = (slot - from) * ROSTER_CODE_BYTES;
  return at >= 0 && at + ROSTER_CODE_BYTES <= bytes.length ? bytes.readUInt32BE(at) : 0;
}

/** Account `id`'s roster code, 0 when it has none. */
export async function readRosterCode(redis: RedisClient, pool: Pool, id: number): Promise<number> {
  const { key, offset } = rosterEntry(pool, id);
  const bytes = await redis.getrangeBuffer(key, offset, offset + ROSTER_CODE_BYTES - 1);
  return codeAt(bytes, 0, 0);
}

/** The ids with an account in roster bucket `bucket` of partition `part`, from the bucket's bytes (null: no bucket). */
export function accountsInRosterBucket(bytes: Buffer | null, part: number, bucket: number): number[] {
  const out: number[] = [];
  if (!bytes) return out;
  for (let slot = 0; (slot + 1) * ROSTER_CODE_BYTES <= bytes.length; slot++) {
    if (bytes.readUInt32BE(slot * ROSTER_CODE_BYTES) > 0) out.push(bucket * ROSTER_BUCKET_SPAN + part + slot * INDEX_PARTITIONS);
  }
  return out;
}
