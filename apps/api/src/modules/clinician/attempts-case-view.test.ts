import { describe, expect, it } from 'vitest';
import type { Attempt } from '@pss/contract';
import { answerTags, caseAnswerTags } from '../../db/schema/index.js';
import { expectError, madeBefore, twoClientsContext } from '../../../test/kit.js';
import { participantWork } from '../../../test/participant-work.js';
import { createUser } from '../../../test/test-app.js';

/**
 * A participant's own view of a case by its id (`GET /case/{caseId}`, spec §7) and the
 * patient image (`GET /case/{caseId}/image`): theirs once the case has unlocked for them,
 * nobody else's, and nothing of a locked case.
 */
const { ctx, f } = twoClientsContext({ now: '2026-03-02T09:00:00Z' });
const staff = madeBefore(() => createUser(ctx.db, { role: 'SUPERADMIN' }));
const work = participantWork(ctx, staff);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);

const fixture = madeBefore(async () => {
  const p = await work.project(f.clientA.id);
  const running = await work.publishedCase(
    p,
    1,
    { name: 'Breathless at night', image_alt: 'An older man sitting up in bed, short of breath' },
    { bytes: PNG, name: 'patient.png' },
  );
  // Round 2 begins on 15 March: locked today.
  const later = await work.publishedCase(p, 2, { name: 'Swollen ankles' }, { bytes: JPEG, name: 'ankles.jpg' });
  const plain = await work.publishedCase(p, 1, { name: 'No picture' });
  const mine = await work.enrol(p, f.clientA.id);
  // A participant of another project of the same client: none of these cases are theirs.
  const elsewhere = await work.enrol(await work.project(f.clientA.id, { name: 'Elsewhere' }), f.clientA.id);
  return { running, later, plain, mine, elsewhere };
});

describe('a participant’s case by its id', () => {
  it('is their own attempt once unlocked, with the image’s text alternative', async () => {
    const { running, mine } = fixture;
    const reply = await work.call('GET', `/case/${running.id}`, mine);
    expect(reply.statusCode).toBe(200);
    const attempt = reply.json<Attempt>();
    expect(attempt.case).toMatchObject({
      id: running.id,
      name: 'Breathless at night',
      has_image: true,
      image_alt: 'An older man sitting up in bed, short of breath',
    });
    expect(attempt.id).toBe(await work.attemptOf(mine, 'Breathless at night'));
    expect(attempt.status).toBe('NOT_STARTED');
  });

  it('serves the patient image with its true type, to its participant only', async () => {
    const { running, plain, mine, elsewhere } = fixture;
    const image = await work.call('GET', `/case/${running.id}/image`, mine);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(PNG)).toBe(true);

    expectError(await work.call('GET', `/case/${running.id}/image`, elsewhere), 404, 'CASE_NOT_FOUND');
    expectError(await work.call('GET', `/case/${running.id}`, elsewhere), 404, 'CASE_NOT_FOUND');
    expectError(await work.call('GET', `/case/${plain.id}/image`, mine), 404, 'NOT_FOUND');
  });

  it('shows nothing of a case whose round has not begun, until it does', async () => {
    const { later, mine } = fixture;
    expectError(await work.call('GET', `/case/${later.id}`, mine), 404, 'CASE_NOT_FOUND');
    expectError(await work.call('GET', `/case/${later.id}/image`, mine), 404, 'CASE_NOT_FOUND');
    ctx.clock.set('2026-03-15T09:00:00Z');
    const image = await work.call('GET', `/case/${later.id}/image`, mine);
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await work.call('GET', `/case/${later.id}`, mine)).statusCode).toBe(200);
    ctx.clock.set('2026-03-02T09:00:00Z');
  });

  it('refuses an id that is not one, and a case that does not exist', async () => {
    const { mine } = fixture;
    expectError(await work.call('GET', '/case/not-an-id', mine), 400, 'VALIDATION_ERROR');
    expectError(await work.call('GET', `/case/${crypto.randomUUID()}/image`, mine), 404, 'CASE_NOT_FOUND');
  });

  it('shows the answer tags of a choice beside it in the feedback', async () => {
    const { running, mine } = fixture;
    const question = running.questions[0]!;
    const ecg = question.choices.find((c) => c.text === 'ECG')!;
    const [tag] = await ctx.db
      .insert(answerTags)
      .values({ name: `Guideline first ${crypto.randomUUID().slice(0, 6)}` })
      .returning();
    await ctx.db
      .insert(caseAnswerTags)
      .values({ caseId: running.id, questionId: question.id, choiceId: ecg.id, tagId: tag!.id, origin: 'CUSTOM' });
    await work.complete(mine, running);
    const result = (await work.call('GET', `/case/${running.id}`, mine)).json<Attempt>().result!;
    const choices = result.questions.find((q) => q.question_id === question.id)!.choices;
    expect(choices.find((c) => c.id === ecg.id)).toMatchObject({ chosen: true, tags: [tag!.name] });
    expect(choices.filter((c) => c.id !== ecg.id).every((c) => c.tags.length === 0)).toBe(true);
  });
});
