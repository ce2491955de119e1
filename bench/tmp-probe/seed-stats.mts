import { openDatabase } from '../../apps/api/src/db/client.js';
import { seedReportProject } from '../report-seed.js';
const database = await openDatabase({ databaseUrl: 'postgres://root@127.0.0.1:5432/pss_stats_probe' });
await database.migrate();
const seeded = await seedReportProject(database.db, { participants: 100000, cases: 4, questions: 2 });
console.log(JSON.stringify(seeded));
await database.close();
