import type { Router } from 'express';
import type { PressureListResponse } from '@holdfast/core/contract';
import { listPressureFiles, readPressureFile } from './pressure-files.js';

/** The routes of the pressure-suite results saved in `runsDir`: the list and one file. */
export function addPressureRoutes(api: Router, runsDir: string): void {
  api.get('/pressure', async (_request, response) => {
    const body: PressureListResponse = { files: await listPressureFiles(runsDir) };
    response.json(body);
  });

  api.get('/pressure/:name', async (request, response) => {
    response.json(await readPressureFile(runsDir, String(request.params['name'])));
  });
}
