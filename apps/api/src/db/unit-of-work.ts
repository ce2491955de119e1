import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Executor, Tx } from './client.js';

/**
 * The unit of work: the statements of one call of the API that changes state (or of one piece
 * of the app's own work) commit together or not at all. The route binding opens a call's unit
 * (`lib/contract-routes.ts`, from the route's declaration); the app's own work opens its own
 * (`run`). While a unit holds its transaction, the services' database handle (`db` below) hands
 * every statement to it, whichever repository makes it, and a service's own `db.transaction`
 * becomes a savepoint inside it. Whatever else must follow the unit subscribes to it: the audit
 * trail writes the call's event in the unit's transaction before it commits
 * (modules/audit/call-recorder.service.ts); a worker is woken, a file removed, once it has
 * committed (`afterCommit`). See docs/design/data-and-transactions.md.
 */

/** A key under which a subscriber keeps what it needs with a unit (the audit trail: the call's record). */
export class UnitKey<T> {
  /** Never read: it carries the kept value's type. */
  declare readonly kept: T;
  constructor(readonly name: string) {}
}

export interface Unit {
  /**
   * The unit's transaction while it is open; null for a unit whose statements each commit as
   * they run (a sign-in's: the attempts it counts stand whatever its outcome), and once it has
   * ended.
   */
  readonly tx: Tx | null;
  /** What the unit's opener and its subscribers keep with it. */
  get<T>(key: UnitKey<T>): T | undefined;
  set<T>(key: UnitKey<T>, value: T): void;
}

/** What follows a unit: called in order of subscription, each awaited. */
export interface UnitSubscriber {
  /** The unit began, in its transaction (`db`), before its work. An error ends the unit. */
  begin?(unit: Unit, db: Executor): Promise<void> | void;
  /** The unit's work is done: in its transaction (`db`), before it commits. An error rolls it back. */
  beforeCommit?(unit: Unit, db: Executor, result: unknown): Promise<void> | void;
  /** The unit committed (a unit without a transaction: its work is done). */
  committed?(unit: Unit): void;
  /** The unit's work failed, and its transaction has rolled back. */
  failed?(unit: Unit, error: unknown): Promise<void> | void;
}

interface OpenUnit extends Unit {
  tx: Tx | null;
  readonly kept: Map<UnitKey<unknown>, unknown>;
  /** Work to run once the unit has committed (a worker's wake-up, a file's removal). */
  readonly afterCommit: (() => void | Promise<void>)[];
  /** Work to undo what is not the database's if the unit rolls back (a file it stored). */
  readonly onRollback: (() => Promise<void>)[];
}

interface Log {
  error(obj: unknown, msg: string): void;
}

const storage = new AsyncLocalStorage<OpenUnit>();

/** The unit the current code runs in, if any. */
export function currentUnit(): Unit | undefined {
  return storage.getStore();
}

/**
 * Runs `work` once the current unit has committed, and not at all if it rolls back (at once
 * outside a unit's transaction): a worker woken while the unit is open would look for its job
 * before it is there to see; a file removed before the commit would be gone from a record the
 * rollback keeps. The unit's call answers once its `work` is done.
 */
export function afterCommit(work: () => void | Promise<void>): void {
  const unit = storage.getStore();
  if (unit?.tx) unit.afterCommit.push(work);
  else void storage.exit(work);
}

/** Runs `undo` if the current unit rolls back (nothing outside a unit's transaction). */
export function onRollback(undo: () => Promise<void>): void {
  const unit = storage.getStore();
  if (unit?.tx) unit.onRollback.push(undo);
}

function newUnit(): OpenUnit {
  const kept = new Map<UnitKey<unknown>, unknown>();
  return {
    tx: null,
    kept,
    afterCommit: [],
    onRollback: [],
    get: <T>(key: UnitKey<T>) => kept.get(key) as T | undefined,
    set: <T>(key: UnitKey<T>, value: T) => {
      kept.set(key, value);
    },
  };
}

/** Runs what waited for a commit; a failure is logged, and the change stands. */
async function afterCommitted(unit: OpenUnit, log: Log): Promise<void> {
  await Promise.all(
    unit.afterCommit.map((work) =>
      Promise.resolve()
        .then(work)
        .catch((error: unknown) => log.error({ err: error }, 'work after a commit failed')),
    ),
  );
}

export interface RunOptions {
  /**
   * True: the unit's statements run in one transaction. False: each commits as it runs (what
   * the unit counts must stand whatever its outcome).
   */
  transaction: boolean;
  /** Keeps what the opener says of the unit before it begins (the route binding: the call). */
  keep?: (unit: Unit) => void;
  /** Where a failure of the work after the commit is told (the call's log). */
  log?: Log;
}

export function createUnitOfWork(root: Db, deps: { log: Log }) {
  const subscribers: UnitSubscriber[] = [];

  /**
   * The app's database handle as services hold it: each property is the current unit's
   * transaction's while one is open, the database's otherwise.
   */
  const db: Db = new Proxy(root, {
    get(target, property) {
      const source = storage.getStore()?.tx ?? target;
      const value: unknown = Reflect.get(source, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(source) : value;
    },
  });

  async function inUnit<T>(unit: OpenUnit, executor: Executor, work: () => Promise<T>): Promise<T> {
    for (const subscriber of subscribers) await subscriber.begin?.(unit, executor);
    const result = await work();
    for (const subscriber of subscribers) await subscriber.beforeCommit?.(unit, executor, result);
    return result;
  }

  async function failed(unit: OpenUnit, error: unknown): Promise<void> {
    await Promise.all(unit.onRollback.map((undo) => undo()));
    for (const subscriber of subscribers) await subscriber.failed?.(unit, error);
  }

  /**
   * Runs `work` as one unit. Inside a unit that holds a transaction, `work` joins it: its
   * statements run in that transaction, what it asks to run after the commit waits for that
   * commit, and no unit of its own begins (a test email sent at once, inside its call).
   */
  async function run<T>(work: () => Promise<T>, options: RunOptions): Promise<T> {
    if (storage.getStore()?.tx) return work();
    const unit = newUnit();
    options.keep?.(unit);
    const log = options.log ?? deps.log;
    if (!options.transaction) {
      let result: T;
      try {
        result = await storage.run(unit, () => inUnit(unit, root, work));
      } catch (error) {
        await failed(unit, error);
        throw error;
      }
      for (const subscriber of subscribers) subscriber.committed?.(unit);
      return result;
    }
    try {
      const result = await root.transaction(async (tx) => {
        unit.tx = tx;
        return storage.run(unit, () => inUnit(unit, tx, work));
      });
      unit.tx = null;
      for (const subscriber of subscribers) subscriber.committed?.(unit);
      await afterCommitted(unit, log);
      return result;
    } catch (error) {
      unit.tx = null;
      await failed(unit, error);
      throw error;
    } finally {
      unit.tx = null;
    }
  }

  return {
    db,
    run,
    /** Follows every unit from now on (the audit trail, as the app is built). */
    subscribe(subscriber: UnitSubscriber): void {
      subscribers.push(subscriber);
    },
  };
}

export type UnitOfWork = ReturnType<typeof createUnitOfWork>;
