// Selects PostgreSQL (TEST_DATABASE_URL) for the e2e specs of this jest project.
process.env.TEST_DATABASE = 'postgres';
