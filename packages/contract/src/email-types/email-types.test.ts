import { describe, expect, it } from 'vitest';
import { saveEmailBody } from '../emails.js';
import {
  emailTypeDescriptors,
  emailTypes,
  manualOnlyEmailTypes,
  projectEmailTypes,
  reminderEmailTypes,
  seasonEmailTypes,
} from './index.js';

/** The descriptors hold what the lists derived from them rely on; a new type is checked here as it is declared. */
describe('the email types’ descriptors', () => {
  it('are listed once each, named in snake_case', () => {
    expect(new Set(emailTypes).size).toBe(emailTypes.length);
    for (const type of emailTypes) expect(type).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('default texts an administrator could save as they are', () => {
    for (const d of emailTypeDescriptors) {
      const saved = saveEmailBody.safeParse({
        subject: d.defaults.subject,
        body: d.defaults.body,
        button_text: d.defaults.buttonText,
        dashboard_url_text: d.defaults.dashboardUrlText,
        send_mode: d.sending === 'manual-only' ? 'MANUAL' : 'AUTOMATIC',
      });
      expect(saved.error?.issues ?? [], d.type).toEqual([]);
    }
  });

  it('a template for each: a project’s, a season’s or both', () => {
    for (const d of emailTypeDescriptors) expect(d.project || d.season, d.type).toBe(true);
    expect(projectEmailTypes).toEqual(
      expect.arrayContaining(['initial', 'reminder', 'certificate_issued', 'dashboard_link']),
    );
    expect(seasonEmailTypes).toEqual(
      expect.arrayContaining([
        'initial',
        'summary_launch',
        'summary_reminder',
        'season_summary_launch',
        'season_summary_reminder',
      ]),
    );
  });

  it('a column in the season simulator for each email the schedule sends, and only those', () => {
    for (const d of emailTypeDescriptors) expect(d.simulator !== null, d.type).toBe(d.sending === 'scheduled');
  });

  it('hold the lists as they were written before the descriptors (issue #49)', () => {
    expect(manualOnlyEmailTypes).toEqual(
      expect.arrayContaining(['dashboard_link', 'season_summary_launch', 'season_summary_reminder']),
    );
    expect(reminderEmailTypes).toEqual(
      expect.arrayContaining(['reminder', 'last_day_of_round', 'last_round', 'new_round', 'summary_reminder']),
    );
    for (const type of [
      'initial',
      'summary_launch',
      'certificate_issued',
      'dashboard_link',
      'season_summary_reminder',
    ]) {
      expect(reminderEmailTypes).not.toContain(type);
    }
  });
});
