import { describe, expect, it } from 'vitest';
import { fillPath, route } from './route.js';
import { z } from 'zod';

describe('a route path filled in', () => {
  const notes = route({
    method: 'GET',
    path: '/users/:userId/:projectId/notes',
    access: 'admin',
    params: z.object({ userId: z.string(), projectId: z.string() }),
  });

  it('puts each parameter in its place, encoded', () => {
    expect(fillPath(notes, { userId: 'a b', projectId: 'p/1' })).toBe('/users/a%20b/p%2F1/notes');
  });
});
