import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What the audit trail is sealed with (issue #46): the link of an event and a checkpoint of the
 * chain's head, each an HMAC-SHA256 under the app's key (AUDIT_SIGNING_KEY), which the database
 * never holds. The database computes an event's digest (`audit_event_digest`, migration 0045:
 * the SHA-256 of its canonical content); whoever can write the tables can change an event and
 * its digest, but cannot make the link that seals it. Each purpose has its own prefix, so that
 * a link can never be passed off as a checkpoint or the other way round.
 */

/** The first link's `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

const hmac = (key: string, text: string): string => createHmac('sha256', key).update(text, 'utf8').digest('hex');
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A keyed link: the previous link's hash and the event's digest, sealed under the key. */
export function linkHash(key: string, prevHash: string, digest: string): string {
  return hmac(key, `pss-audit-link\n${prevHash}\n${digest}`);
}

/** An event's digest from its canonical content, as `audit_event_digest` computes it. */
export function contentDigest(content: string): string {
  return sha256(content);
}

/** A link made before the chain was keyed (migration 0036's `audit_event_hash`). */
export function unkeyedLinkHash(prevHash: string, content: string): string {
  return sha256(`${prevHash}\n${content}`);
}

/** The chain's head at a moment, as a checkpoint keeps it. */
export interface CheckpointHead {
  /** The chain's first link's hash: which chain (a database made anew has another). */
  chain: string;
  place: number;
  hash: string;
  at: string;
}

export interface Checkpoint extends CheckpointHead {
  signature: string;
}

export function signCheckpoint(key: string, head: CheckpointHead): Checkpoint {
  return { ...head, signature: hmac(key, checkpointText(head)) };
}

export function checkpointHolds(key: string, checkpoint: Checkpoint): boolean {
  return sameHex(checkpoint.signature, hmac(key, checkpointText(checkpoint)));
}

function checkpointText(head: CheckpointHead): string {
  return `pss-audit-checkpoint\n${head.chain}\n${head.place}\n${head.hash}\n${head.at}`;
}

/** Compares two hex texts in constant time (a seal is compared as a secret would be). */
export function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
