export * from './envelope';
export * from './health';
export * from './forms';
export * from './auth';
export * from './trading';
export * from './accounts';
export * from './trades';
export * from './admin';
