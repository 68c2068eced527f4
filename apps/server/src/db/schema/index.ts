export * from './system';
export * from './auth';
export * from './trading';
export * from './paper';
export * from './billing';
export * from './audit';
export * from './portfolio';
