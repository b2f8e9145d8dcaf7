// The TCP echo target of bench/gateway/tcp-echo.ts: every byte straight back (PORT env).
import { createServer } from 'node:net';

const server = createServer({ allowHalfOpen: true }, (socket) => {
  socket.on('error', () => socket.destroy());
  socket.pipe(socket);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
