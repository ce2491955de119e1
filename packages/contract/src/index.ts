export * from './access.js';
export * from './auth.js';
export * from './enums.js';
export * from './errors.js';
export * from './health.js';
export * from './list-query.js';
export * from './clients.js';
