import path from 'node:path';
import { parseArgs } from 'node:util';

/** The command line of `npm run bench` (see run.ts). */
export const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '5000' },
    'projects-per-client': { type: 'string', default: '4' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    pg: { type: 'string' },
    port: { type: 'string', default: '3310' },
    participants: { type: 'string', default: '100000' },
    /** Imports of --participants timed (the median is reported); with more than one on PostgreSQL, as many again without the kept counts. */
    'import-runs': { type: 'string', default: '1' },
    /** Participants saving answers at once in the answer benchmark (0 skips it). */
    'answer-participants': { type: 'string', default: '50' },
    /** How many times each of them answers each of the case's ten questions. */
    'answer-passes': { type: 'string', default: '5' },
    /** Participants of the emails scenario's project (0 skips it). */
    'email-participants': { type: 'string', default: '100000' },
    /** Emails the emails scenario sends of those it queued (0: all of them). */
    'email-send': { type: 'string', default: '10000' },
    /** Answers in the project the reports are downloaded from (0 skips the reports benchmark). */
    'report-answers': { type: 'string', default: '1000000' },
    /** Participants of the project the statistics calls read (0 skips them). */
    'statistics-participants': { type: 'string', default: '100000' },
    /** Only the calls whose name matches this regular expression (health always runs; `emails` is the emails scenario). */
    scenarios: { type: 'string' },
    /** The soak's length (`--scenarios soak`, bench/soak.ts). */
    minutes: { type: 'string', default: '60' },
    /** The soak's participants (each answers the case once; the default is enough to outlast an hour's soak). */
    'soak-participants': { type: 'string', default: '5000' },
    /** The first screens' project (`--scenarios first-screens`, bench/first-screens.ts). */
    'first-screens-participants': { type: 'string', default: '10000' },
    /** 0 leaves out the first screens' browser part. */
    'first-screens-browser': { type: 'string', default: '1' },
    /** Seconds the server is left idle before a first opening that should meet it cold. */
    'first-screens-idle': { type: 'string', default: '35' },
    /** The season simulator's participants (`--scenarios season`, bench/season.ts). */
    'season-participants': { type: 'string', default: '1000' },
  },
});
export const clientCount = Number(values.clients);
export const projectsPerClient = Number(values['projects-per-client']);
export const duration = Number(values.duration);
export const connections = Number(values.connections);
export const port = Number(values.port);
export const root = path.resolve(import.meta.dirname, '..');
export const base = `http://127.0.0.1:${port}`;
