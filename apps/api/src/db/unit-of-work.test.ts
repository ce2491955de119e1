import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, openTestDatabase } from '../../test/test-app.js';
import type { Db } from './client.js';
import { clients } from './schema/index.js';
import { afterCommit, createUnitOfWork, currentUnit, onRollback, UnitKey, type UnitOfWork } from './unit-of-work.js';

/**
 * The unit of work on a real database (PGlite, and PostgreSQL too): what runs in a unit commits
 * together or not at all, the services' handle follows it, its subscribers see it begin, end
 * and fail, and what waits for its commit waits.
 */

let root: Db;
let drop: () => Promise<void>;
const silent = { error: () => undefined };

beforeAll(async () => {
  const opened = await openTestDatabase();
  root = opened.database.db;
  drop = opened.drop;
});
afterAll(() => drop());

const names = (prefix: string) => [`${prefix} one`, `${prefix} two`];
async function kept(prefix: string): Promise<string[]> {
  const rows = await root
    .select({ name: clients.name })
    .from(clients)
    .where(inArray(clients.name, names(prefix)));
  return rows.map((row) => row.name).sort();
}

/** What an opener keeps with a unit, for the subscriber to read. */
const label = new UnitKey<string>('label');

/** A unit of work with a subscriber that writes down what it is told. */
function followed(): { units: UnitOfWork; told: string[] } {
  const units = createUnitOfWork(root, { log: silent });
  const told: string[] = [];
  units.subscribe({
    begin: (unit) => void told.push(`begin ${unit.get(label) ?? '-'} ${unit.tx ? 'tx' : 'none'}`),
    beforeCommit: (unit, _db, result) => void told.push(`beforeCommit ${String(result)}`),
    committed: () => void told.push('committed'),
    failed: (_unit, error) => void told.push(`failed ${(error as Error).message}`),
  });
  return { units, told };
}

describe('a unit of work', () => {
  it('commits what its work does through the services’ handle, then runs what waited for the commit', async () => {
    const { units, told } = followed();
    const result = await units.run(
      async () => {
        const [first, second] = names('committed');
        await createClient(units.db, first);
        afterCommit(() => void told.push('after commit'));
        await createClient(units.db, second);
        return 'done';
      },
      { transaction: true, keep: (unit) => unit.set(label, 'a call') },
    );
    expect(result).toBe('done');
    expect(await kept('committed')).toEqual(names('committed').sort());
    expect(told).toEqual(['begin a call tx', 'beforeCommit done', 'committed', 'after commit']);
  });

  it('rolls back all of it when its work fails, or a subscriber before the commit; what waited is dropped, what is undone is undone', async () => {
    const { units, told } = followed();
    const undone: string[] = [];
    await expect(
      units.run(
        async () => {
          await createClient(units.db, names('failed')[0]);
          afterCommit(() => void told.push('after commit'));
          onRollback(async () => void undone.push('a file'));
          throw new Error('refused');
        },
        { transaction: true },
      ),
    ).rejects.toThrow('refused');
    expect(await kept('failed')).toEqual([]);
    expect(told).toEqual(['begin - tx', 'failed refused']);
    expect(undone).toEqual(['a file']);

    const refusing = createUnitOfWork(root, { log: silent });
    refusing.subscribe({
      beforeCommit: () => {
        throw new Error('no event, no change');
      },
    });
    await expect(
      refusing.run(() => createClient(refusing.db, names('unwritten')[0]), { transaction: true }),
    ).rejects.toThrow('no event, no change');
    expect(await kept('unwritten')).toEqual([]);
  });

  it('makes a service’s own transaction inside it a savepoint: a part that fails is undone, the rest commits', async () => {
    const { units } = followed();
    const [first, second] = names('savepoint');
    await units.run(
      async () => {
        await createClient(units.db, first);
        await units.db
          .transaction(async (tx) => {
            await createClient(tx, second);
            throw new Error('this part only');
          })
          .catch(() => undefined);
      },
      { transaction: true },
    );
    expect(await kept('savepoint')).toEqual([first]);
  });

  it('without a transaction, lets each statement stand whatever the outcome, and runs what waits at once', async () => {
    const { units, told } = followed();
    await expect(
      units.run(
        async () => {
          expect(currentUnit()?.tx).toBeNull();
          await createClient(units.db, names('standing')[0]);
          afterCommit(() => void told.push('at once'));
          throw new Error('refused');
        },
        { transaction: false },
      ),
    ).rejects.toThrow('refused');
    expect(await kept('standing')).toEqual([names('standing')[0]]);
    expect(told).toEqual(['begin - none', 'at once', 'failed refused']);
  });

  it('joins the unit it runs in when that one holds a transaction: no unit of its own, one commit or none', async () => {
    const { units, told } = followed();
    const [first, second] = names('joined');
    await expect(
      units.run(
        async () => {
          const outer = currentUnit();
          await units.run(
            async () => {
              expect(currentUnit()).toBe(outer);
              await createClient(units.db, second);
            },
            { transaction: true },
          );
          await createClient(units.db, first);
          throw new Error('the outer one fails');
        },
        { transaction: true },
      ),
    ).rejects.toThrow('the outer one fails');
    expect(await kept('joined')).toEqual([]);
    expect(told).toEqual(['begin - tx', 'failed the outer one fails']);
    expect(currentUnit()).toBeUndefined();
  });
});
