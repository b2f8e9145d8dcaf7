// `npm run restart`: asks the running `npm start` (same DATA_DIR) for a rolling restart of the
// esign instances, after applying a changed deploy/kong.yml. Its progress shows in npm start's log.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSystemConfig, SystemConfigError } from './config.ts';
import { PID_FILE } from './pid-file.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');

function main(): number {
  let dataDir: string;
  try {
    dataDir = loadSystemConfig(process.env, repoRoot).dataDir;
  } catch (err) {
    if (err instanceof SystemConfigError) {
      console.error(`signet restart: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const pidFile = join(dataDir, PID_FILE);
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    console.error(`signet restart: no running system found (${pidFile} is missing; is npm start running with this DATA_DIR?)`);
    return 1;
  }
  // A pid file left by a system that was killed may name another process by now.
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // not running
  }
  if (!Number.isInteger(pid) || pid <= 0 || !cmdline.includes('packages/system/src/main.ts')) {
    console.error(`signet restart: the system that wrote ${pidFile} (pid ${pid}) is not running`);
    return 1;
  }
  process.kill(pid, 'SIGHUP');
  console.log(`signet restart: rolling restart requested (SIGHUP to pid ${pid}); npm start's log shows its progress`);
  return 0;
}

process.exitCode = main();
