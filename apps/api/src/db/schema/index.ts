export * from './clients.js';
export * from './cmes.js';
export * from './imports.js';
export * from './projects.js';
export * from './sessions.js';
export * from './users.js';
export * from './participants.js';
export * from './cases.js';
