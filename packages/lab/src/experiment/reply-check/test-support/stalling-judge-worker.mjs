// A judge worker that never answers: it spins on the first reply it is given, as a parser would
// on a reply that costs it minutes. Used to prove the pool's caller stays responsive.
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => {
  for (;;) {
    // spin until terminated
  }
});
