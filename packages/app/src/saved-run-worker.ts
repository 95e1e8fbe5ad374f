import { serveRequests } from '@holdfast/lab/thread-pool';
import { savedRunJson } from './saved-run-json.js';
import type { SavedRunJson, SavedRunRequest } from './saved-run-json.js';

// The entry of the saved-run reader's worker thread (see saved-run-json.ts).
serveRequests<SavedRunRequest, SavedRunJson>(savedRunJson);
