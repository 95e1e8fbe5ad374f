import { createServer } from 'node:http';
import { listProducts } from './features/catalog/list-products.ts';

const port = Number(process.env.PORT ?? 8080);

createServer((request, response) => {
  if (request.url === '/products') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(listProducts()));
    return;
  }
  response.writeHead(404).end();
}).listen(port);
