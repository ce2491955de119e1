import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Resource } from '@pss/contract';
import { migrationsFolder, rowsOf } from '../../db/client.js';
import { resources } from '../../db/schema/resources.js';
import { expectError } from '../../../test/kit.js';
import { resourceSetup } from '../../../test/resource-calls.js';
import { normalLinkKey } from './resource-names.js';

const { call, ctx, get, urlResource } = resourceSetup();

/**
 * The library holds each link once (spec §5: duplicate URL rejected), judged by its normal
 * form: scheme and host in any case, a default port and a trailing slash make no other link.
 */

const create = (link: string, name = 'Again') =>
  call('POST', '/resource-library', { payload: { name, source_type: 'URL', link } });

describe('the normal form of a link', () => {
  it.each([
    ['https://Example.org/guide', 'https://example.org/guide'],
    ['https://example.org/guide/', 'https://example.org/guide'],
    ['HTTPS://EXAMPLE.ORG:443/guide//', 'https://example.org/guide'],
    ['http://example.org:80/', 'http://example.org'],
    ['https://example.org:8443/a/', 'https://example.org:8443/a'],
    ['https://example.org/Guide/?q=A#Part', 'https://example.org/Guide?q=A#Part'],
    ['https://example.org/a/?q=/', 'https://example.org/a?q=/'],
  ])('%s → %s', (link, key) => {
    expect(normalLinkKey(link)).toBe(key);
  });
});

describe('a link the library holds already, however written', () => {
  it('refuses https://example.org/guide/ after https://Example.org/guide, and the host’s case and port', async () => {
    const first = await urlResource({ link: 'https://Example.org/guide' });
    expect(first.link).toBe('https://example.org/guide');
    const count = async () => (await ctx.db.select({ id: resources.id }).from(resources)).length;
    const before = await count();
    for (const link of ['https://example.org/guide/', 'HTTPS://EXAMPLE.ORG:443/guide', 'https://example.org/guide//']) {
      const again = await create(link);
      expectError(again, 409, 'URL_ALREADY_EXISTS');
      expect(again.json().message).toContain('https://example.org/guide');
    }
    expect(await count()).toBe(before);
  });

  it('takes a link whose path differs in case, or whose query differs, as another', async () => {
    await urlResource({ link: 'https://example.org/Cases/' });
    expect((await create('https://example.org/cases', 'Lower')).statusCode).toBe(201);
    expect((await create('https://example.org/Cases?page=2', 'Page 2')).statusCode).toBe(201);
  });

  it('refuses an edit or a copy to another resource’s link written differently; a resource may rewrite its own', async () => {
    const held = await urlResource({ link: 'https://held.example.org/page' });
    const other = await urlResource();
    const edit = await call('PUT', `/resource-library/${other.id}`, {
      payload: { name: other.name, link: 'https://Held.example.org/page/' },
    });
    expectError(edit, 409, 'URL_ALREADY_EXISTS');
    expect((await get(other.id)).link).toBe(other.link);
    const copy = await call('POST', `/resource-library/${other.id}/duplicate`, {
      payload: { link: 'https://held.example.org/page/' },
    });
    expectError(copy, 409, 'URL_ALREADY_EXISTS');

    const own = await call('PUT', `/resource-library/${held.id}`, {
      payload: { name: 'Held', link: 'https://held.example.org/page/' },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<Resource>().link).toBe('https://held.example.org/page/');
    expectError(await create('https://held.example.org/page'), 409, 'URL_ALREADY_EXISTS');
  });
});

describe('migration 0031 over the links stored before it', () => {
  it('keys each stored link, and leaves a second of the same normal form without a key (kept, still editable)', async () => {
    // The table as it was before the migration.
    await ctx.ownerDb.execute(sql`drop index resources_link_key_key`);
    await ctx.ownerDb.execute(sql`alter table resources drop column link_key`);
    await ctx.ownerDb.execute(sql`create unique index resources_link_key on resources (link) where link is not null`);
    const stored = ['https://legacy.example.org/a', 'https://legacy.example.org/a/', 'https://legacy.example.org/B/'];
    const ids: string[] = [];
    for (const [i, link] of stored.entries()) {
      const inserted = await ctx.db.execute(
        sql`insert into resources (name, source_type, link, created_at)
            values (${`Legacy ${i}`}, 'URL', ${link}, ${new Date(Date.UTC(2025, 0, i + 1)).toISOString()}) returning id`,
      );
      ids.push(rowsOf<{ id: string }>(inserted)[0]!.id);
    }
    const migration = readFileSync(path.join(migrationsFolder, '0031_resource_link_key.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await ctx.ownerDb.execute(sql.raw(statement));

    const keys = await ctx.db
      .select({ id: resources.id, linkKey: resources.linkKey })
      .from(resources)
      .where(inArray(resources.id, ids));
    const keyOf = (id: string) => keys.find((k) => k.id === id)?.linkKey;
    expect(keyOf(ids[0]!)).toBe(normalLinkKey(stored[0]!));
    expect(keyOf(ids[1]!)).toBeNull();
    expect(keyOf(ids[2]!)).toBe(normalLinkKey(stored[2]!));
    // Every other link's key is the app's.
    for (const row of await ctx.db
      .select()
      .from(resources)
      .where(sql`${resources.linkKey} is not null`)) {
      expect(row.linkKey).toBe(normalLinkKey(row.link!));
    }

    expectError(await create('https://LEGACY.example.org/a'), 409, 'URL_ALREADY_EXISTS');
    expectError(await create('https://legacy.example.org/B'), 409, 'URL_ALREADY_EXISTS');
    const renamed = await call('PUT', `/resource-library/${ids[1]}`, {
      payload: { name: 'Legacy copy', link: stored[1] },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const [after] = await ctx.db.select().from(resources).where(eq(resources.id, ids[1]!));
    expect(after).toMatchObject({ name: 'Legacy copy', linkKey: null });
  });
});
