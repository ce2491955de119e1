import { DEMO_WINTER_COMPLETER, DEMO_WINTER_UNFINISHED } from './demo-results.js';

/**
 * The demo participants whose dashboard links the server prints at first start, each
 * showing one moment of the participants' side:
 *  - mid-season: Maria Alvarez answered the season's start survey; her cases wait for her;
 *  - a season completed: James Chen finished the Winter Season, whose Results Summary is
 *    posted on his dashboard beside the CME credit he earned;
 *  - Priya Natarajan stopped half-way through the Winter Season (no summary for her);
 *  - new: Elena Popescu joins the running season today (her first case and start survey ahead).
 */
export const DEMO_MID_SEASON = 'maria.alvarez@northwind.demo.local';
export const DEMO_NEW_PARTICIPANT = 'elena.popescu@northwind.demo.local';

export const demoParticipantLinks: { label: string; email: string }[] = [
  { label: 'Participant mid-season, start survey answered', email: DEMO_MID_SEASON },
  { label: 'Participant who completed the Winter Season', email: DEMO_WINTER_COMPLETER },
  { label: 'Participant who did not finish the Winter Season', email: DEMO_WINTER_UNFINISHED },
  { label: 'Participant new today', email: DEMO_NEW_PARTICIPANT },
];
