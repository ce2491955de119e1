import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import { clients } from '../db/schema/index.js';
import { hashPassword } from '../lib/passwords.js';
import { createUsersRepository } from '../modules/users/users.repository.js';

export interface DemoSignIn {
  role: 'superadmin' | 'admin';
  label: string;
  email: string;
  password: string;
}

const demoClientNames = [
  'Northwind Health',
  'Riverside Medical Group',
  'Summit Family Practice',
  'Lakeside Community Clinics',
  'Harborview Physicians',
  'Maple Valley Health Partners',
  'Cedar Ridge Medical Center',
  'Bluebonnet Primary Care',
  'Granite State Health',
  'Pinecrest Pediatrics',
  'Oak Hollow Family Medicine',
  'Seaside Internal Medicine',
  'Prairie Wind Health System',
  'Silver Creek Clinics',
  'Redwood Coast Medical',
  'Highland Park Physicians',
  'Meadowbrook Health',
  'Golden Gate Primary Care',
  'Evergreen Valley Medical',
  'Sunrise Medical Associates',
  'Willow Bend Health',
  'Stonebridge Clinic',
  'Clearwater Family Health',
  'Aspen Grove Medical',
  'Kingsport Health Network',
  'Bayside Care Partners',
  'Fox River Physicians',
  'Hillcrest Medical Group',
];

/** Demo clients: enough to page through; most are CAP members. */
function demoClients(): (typeof clients.$inferInsert)[] {
  return demoClientNames.map((name, index) => ({
    name,
    capId: index % 5 === 2 ? null : `CAP-${10001 + index}`,
    capStatus: index % 5 === 2 ? null : index % 7 === 3 ? 'Inactive' : 'Active',
  }));
}

/** A password that is easy to type from the console but not guessable. */
function demoPassword(): string {
  return `demo-${randomBytes(6).toString('base64url')}`;
}

/**
 * What a newcomer meets on an empty database. Each feature adds its own demo content
 * here, so the app is never empty on first sight.
 */
export async function seedDemoContent(db: Db): Promise<DemoSignIn[]> {
  const repository = createUsersRepository(db);
  const insertedClients = await db.insert(clients).values(demoClients()).returning();
  const northwind = insertedClients[0];
  if (!northwind) throw new Error('demo clients were not created');

  const superadminPassword = demoPassword();
  const adminPassword = demoPassword();
  await repository.insert({
    email: 'superadmin@demo.local',
    passwordHash: await hashPassword(superadminPassword),
    role: 'SUPERADMIN',
    firstName: 'Dana',
    lastName: 'Provider',
  });
  await repository.insert({
    email: 'admin@northwind.demo.local',
    passwordHash: await hashPassword(adminPassword),
    role: 'ADMIN',
    firstName: 'Alex',
    lastName: 'Northwind',
    clientId: northwind.id,
  });
  return [
    {
      role: 'superadmin',
      label: 'Provider employee (superadmin)',
      email: 'superadmin@demo.local',
      password: superadminPassword,
    },
    {
      role: 'admin',
      label: 'Client administrator (Northwind Health)',
      email: 'admin@northwind.demo.local',
      password: adminPassword,
    },
  ];
}
