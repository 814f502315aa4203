// Selects PostgreSQL through PgBouncer in transaction mode (the project's global setup starts
// it) for the e2e specs of this jest project: the specs' own clients and every service.
process.env.TEST_DATABASE = 'postgres';
process.env.TEST_DATABASE_URL = process.env.TEST_PGBOUNCER_URL;
process.env.TEST_DATABASE_POOLER = 'transaction';
