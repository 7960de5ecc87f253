/**
 * The fleet labs (several bot processes on the machine's PostgreSQL server) in one file, so that
 * one test worker runs them one after the other from the start of the run, beside every other
 * file: apart, each lab's file would hold a worker of its own waiting for its turn on the server
 * (test/e2e/fleet-lab.ts), at the end of the run. Each suite stays in its own module.
 */
import './fleet.suite.ts';
import './fleet-pause.suite.ts';
import './fleet-budget.suite.ts';
import './fleet-burst.suite.ts';
import './fleet-downlines.suite.ts';
