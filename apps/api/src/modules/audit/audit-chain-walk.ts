import type { AuditChainProblem, AuditChainProblemKind, AuditVerdict } from '@pss/contract';
import { GENESIS_HASH, linkHash, sameHex, type Checkpoint } from './audit-seals.js';

/**
 * The rules a chain is checked by, one place for both readers of it: the check of the database
 * (`verifyAuditChain`) and the offline check of an export (`npm run audit:verify -- --export`).
 * Each gives the links in place order, each with its event as it reads now; the walk names every
 * problem it meets and goes on, so one altered event does not hide a missing tail.
 */

/** A link of the chain with its event as it reads now (null: the event is gone). */
export interface LinkReading {
  chainSeq: number;
  eventId: string;
  prevHash: string;
  hash: string;
  keyed: boolean;
  event: {
    id: string;
    at: Date;
    /** The SHA-256 of the event's canonical content (what a keyed link seals). */
    digest: string;
    /** The link an unkeyed link should hold: SHA-256 of its previous hash and the content. */
    unkeyedHash: string;
  } | null;
}

/**
 * How far an event's time may go back from the latest before it on the chain. Events are dated
 * when their call makes them and chained when it commits, so a long call's event may follow a
 * shorter one's made after it; several processes' clocks differ by a little too. An event dated
 * months back is a forgery's mark.
 */
export const TIME_TOLERANCE_MS = 5 * 60_000;

/** Problems named at most: past them the chain is broken enough to read by hand. */
export const MAX_PROBLEMS = 100;

export type ChainVerdict = AuditVerdict;

/**
 * `checkpoints`: those kept outside the database whose signatures hold; the walk uses those of
 * its own chain (the hash of its first link) to find a missing tail and links changed since.
 */
export function createChainWalk(key: string, checkpoints: Checkpoint[] = []) {
  const problems: AuditChainProblem[] = [];
  let expected = 1;
  let prevHash = GENESIS_HASH;
  let keyedSeen = false;
  let latestAt: Date | null = null;
  let checked = 0;
  let lastLink: { chainSeq: number; eventId: string; hash: string } | null = null;
  let firstHash: string | null = null;
  // The hash the walk met at each place a checkpoint names.
  const watched = new Set(checkpoints.map((checkpoint) => checkpoint.place));
  const hashesAt = new Map<number, string>();

  function problem(kind: AuditChainProblemKind, id: string | null, detail: string): void {
    if (problems.length < MAX_PROBLEMS) problems.push({ kind, id, detail });
  }

  /**
   * The chain against what its checkpoints saw: it must reach the furthest, and hold at each
   * checkpoint's place the hash that checkpoint saw there.
   */
  function compareWithCheckpoints(): void {
    const ours = checkpoints.filter((checkpoint) => firstHash !== null && checkpoint.chain === firstHash);
    const end = lastLink?.chainSeq ?? 0;
    const furthest = ours.reduce<Checkpoint | null>((a, c) => (a && a.place >= c.place ? a : c), null);
    if (furthest && end < furthest.place) {
      const gone = furthest.place - end;
      problem(
        'TAIL_MISSING',
        lastLink?.eventId ?? null,
        `the chain ends at place ${end}; the checkpoint of ${furthest.at} saw it reach place ${furthest.place} ` +
          `(${gone} newest event${gone === 1 ? '' : 's'} gone)`,
      );
    }
    const named = new Set<number>();
    for (const checkpoint of ours) {
      const hash = hashesAt.get(checkpoint.place);
      if (hash === undefined || hash === checkpoint.hash || named.has(checkpoint.place)) continue;
      named.add(checkpoint.place);
      problem('ALTERED', null, `the link at place ${checkpoint.place} differs from the checkpoint of ${checkpoint.at}`);
    }
  }

  return {
    /** The next link, in place order. */
    add(link: LinkReading): void {
      const before = problems.length;
      if (link.chainSeq !== expected) {
        const gone = link.chainSeq - expected;
        problem(
          'MISSING',
          link.eventId,
          gone === 1
            ? `the link before this event's (place ${expected}) and its event are gone`
            : `the ${gone} links before this event's (places ${expected}–${link.chainSeq - 1}) and their events are gone`,
        );
      } else if (link.prevHash !== prevHash) {
        problem('ALTERED', link.eventId, `its link does not follow the link before it (place ${expected - 1})`);
      }
      if (!link.event) {
        problem('MISSING', link.eventId, `the event was removed; its link (place ${link.chainSeq}) remains`);
      } else {
        if (link.event.id !== link.eventId) {
          problem('ALTERED', link.eventId, `another event (${link.event.id}) stands in its place`);
        } else if (link.keyed) {
          if (!sameHex(link.hash, linkHash(key, link.prevHash, link.event.digest))) {
            problem('ALTERED', link.eventId, 'the event or its link was changed: the seal does not match');
          }
        } else if (keyedSeen) {
          problem(
            'ALTERED',
            link.eventId,
            'an unsealed link after sealed ones: the chain was made again without the key',
          );
        } else if (!sameHex(link.hash, link.event.unkeyedHash)) {
          problem('ALTERED', link.eventId, 'the event or its link was changed: its hash does not match');
        }
        if (latestAt && link.event.at.getTime() < latestAt.getTime() - TIME_TOLERANCE_MS) {
          problem(
            'TIME_BACKWARDS',
            link.eventId,
            `dated ${link.event.at.toISOString()}, after an event of ${latestAt.toISOString()} on the chain`,
          );
        }
        if (!latestAt || link.event.at > latestAt) latestAt = link.event.at;
      }
      if (link.keyed) keyedSeen = true;
      if (problems.length === before && problems.length === 0) checked += 1;
      if (link.chainSeq === 1) firstHash = link.hash;
      if (watched.has(link.chainSeq)) hashesAt.set(link.chainSeq, link.hash);
      prevHash = link.hash;
      expected = link.chainSeq + 1;
      lastLink = { chainSeq: link.chainSeq, eventId: link.eventId, hash: link.hash };
    },

    /** The hash of the chain's first link: which chain this is (null when it has none). */
    chain: (): string | null => firstHash,

    /** An event on no link, older than the sealer's round (it should be on one). */
    notOnChain(event: { id: string; at: Date }): void {
      problem('NOT_ON_CHAIN', event.id, `dated ${event.at.toISOString()}, never sealed into the chain`);
    },

    /** A checkpoint line whose signature does not hold, or that cannot be read. */
    forgedCheckpoint(detail: string): void {
      problem('CHECKPOINT_FORGED', null, detail);
    },

    head: () => lastLink,

    finish(): ChainVerdict {
      compareWithCheckpoints();
      return {
        ok: problems.length === 0,
        checked,
        first_broken_id: problems.find((p) => p.id !== null)?.id ?? null,
        problems,
      };
    },
  };
}

export type ChainWalk = ReturnType<typeof createChainWalk>;
