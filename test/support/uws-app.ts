import { us_listen_socket_close, us_socket_local_port, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';

/** Listens with `app` on a free loopback port; `close` stops listening and closes every connection. */
export function listenOnFreePort(app: TemplatedApp): Promise<{ port: number; url: string; close: () => void }> {
  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', 0, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error('uWS could not listen'));
      const port = us_socket_local_port(socket);
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        close: () => {
          us_listen_socket_close(socket);
          app.close();
        },
      });
    });
  });
}
