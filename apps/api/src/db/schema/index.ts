export * from './clients.js';
export * from './sessions.js';
export * from './users.js';
