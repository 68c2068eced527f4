import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * A pass-through proxy in front of the server under test. The working tree is shared: anyone may
 * rebuild apps/web/dist during a run (another suite, `npm start`), and the server keeps serving
 * the index.html it read at start-up while the hashed files it names are gone. When the server
 * answers 404 for /assets/…, the proxy serves that file from the copy taken at start-up instead.
 * Everything else (HTML for navigations, the API, headers, Host) goes through untouched.
 */
export async function startAssetShield(
  target: string,
  assetCopy: string,
  port = 0,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        const pathname = new URL(request.url ?? '/', target).pathname;
        const copy = path.join(assetCopy, path.normalize(pathname.slice('/assets/'.length)));
        if (
          answer.statusCode === 404 &&
          pathname.startsWith('/assets/') &&
          copy.startsWith(assetCopy + path.sep) &&
          fs.existsSync(copy)
        ) {
          answer.resume();
          response.writeHead(200, {
            'content-type': TYPES[path.extname(copy)] ?? 'application/octet-stream',
            'cache-control': 'public, max-age=31536000, immutable',
          });
          fs.createReadStream(copy).pipe(response);
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('asset shield has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
