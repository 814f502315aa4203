// Selects the embedded database for the e2e specs of this jest project.
process.env.TEST_DATABASE = 'sqlite';
