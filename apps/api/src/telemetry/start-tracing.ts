// Imported first by main.ts: the instrumentations must be in place before http, express, pg,
// ioredis and pino are loaded.
import { startTracing } from './tracing';

startTracing();
