/** The file in DATA_DIR holding the pid of a running `npm start` (for `npm run restart`). */
export const PID_FILE = 'signet.pid';
