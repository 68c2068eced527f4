export * from './system';
export * from './auth';
export * from './trading';
export * from './paper';
