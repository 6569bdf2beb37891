/**
 * The ceiling: the most trivial uWS route, on its own in a child process, loaded by the same generators as
 * the service. It answers any method and path, so that wrk can send it the very requests of the swipes.
 * Prints `{"port": n}` on stdout once listening; exits when its parent goes away.
 */
import { App, us_socket_local_port } from 'uWebSockets.js';

const BODY = '{"status":"ok"}';

App()
  .any('/*', (res) => {
    res.cork(() => {
      res.writeHeader('Content-Type', 'application/json');
      res.end(BODY);
    });
  })
  .listen('127.0.0.1', 0, (socket) => {
    if (!socket) {
      console.error('hello server: cannot listen');
      process.exit(1);
    }
    console.log(JSON.stringify({ port: us_socket_local_port(socket) }));
  });

process.on('disconnect', () => process.exit(0));
// If the bench dies without stopping us (SIGKILL), we are re-parented: leave too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
process.on('SIGTERM', () => process.exit(0));
