// Test-only preload for the built service (NODE_OPTIONS=--import ...): when the service is
// about to record that an event listener completed, it says so on standard output and never
// sends the statement, so that the test can kill the process after the listener's work and
// before its completion is recorded, on either engine.
import typeorm from 'typeorm';

// TypeORM names the table with its schema when one is configured.
const completion = /^UPDATE ("[^"]+"\.)?"event_publications" SET .*"completed_at"/;
const createQueryRunner = typeorm.DataSource.prototype.createQueryRunner;

typeorm.DataSource.prototype.createQueryRunner = function (...args) {
  const runner = createQueryRunner.apply(this, args);
  // SQLite's data source hands out one runner again and again: patched once.
  if (runner.pausesBeforeCompletion) return runner;
  runner.pausesBeforeCompletion = true;
  const query = runner.query;
  runner.query = function (text, ...rest) {
    if (typeof text !== 'string' || !completion.test(text)) return query.call(this, text, ...rest);
    process.stdout.write('paused before recording a completion\n');
    return new Promise(() => {});
  };
  return runner;
};
