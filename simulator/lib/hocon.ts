// The HOCON reader and writer live in common/ (below both the simulator and the console, which
// reads backups with it); this keeps the simulator's own import path.
export * from '../../common/hocon.ts';
