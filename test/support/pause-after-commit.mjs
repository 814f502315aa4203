// Test-only preload for the built service (NODE_OPTIONS=--import ...): once a transaction
// that inserted into the table PAUSE_AFTER_COMMIT_OF has committed, it says so on standard
// output and never returns, so that the test can kill the process between the COMMIT and
// anything the service would do next (the HTTP answer included).
import pg from 'pg';

const { Client } = pg;

// TypeORM names the table with its schema when one is configured. A created row goes first in
// its write's batch: alone, or as the first clause of a WITH that sends the batch at once.
const insert = new RegExp(
  `^(WITH w0 AS \\()?INSERT INTO ("[^"]+"\\.)?"${process.env.PAUSE_AFTER_COMMIT_OF}"`,
);
const writers = new WeakSet();
const query = Client.prototype.query;

Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config && config.text;
  if (typeof text === 'string' && insert.test(text)) writers.add(this);
  const result = query.call(this, config, ...rest);
  if (text !== 'COMMIT' || !writers.has(this)) return result;
  return result.then(() => {
    process.stdout.write('paused after COMMIT\n');
    return new Promise(() => {});
  });
};
