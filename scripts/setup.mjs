#!/usr/bin/env node
// One-shot machine set-up, run before `npm start` and `npm test` (npm's pre-scripts).
// Uses only node builtins: on a fresh clone nothing else is installed yet.
// 1. npm ci when node_modules is missing or older than package-lock.json.
// 2. Debian packages the chosen purpose needs: installed with apt-get when we are root,
//    otherwise a message naming each missing package and a non-zero exit.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian package → a file whose presence proves it is installed. */
const PACKAGES = {
  'libreoffice-writer-nogui': ['/usr/bin/soffice'],
  'python3-uno': ['/usr/lib/python3/dist-packages/uno.py'],
  chromium: ['/usr/bin/chromium'],
  'fonts-liberation2': ['/usr/share/fonts/truetype/liberation2'],
  'fonts-crosextra-carlito': ['/usr/share/fonts/truetype/crosextra/Carlito-Regular.ttf'],
  'fonts-crosextra-caladea': ['/usr/share/fonts/truetype/crosextra/Caladea-Regular.ttf'],
  'fonts-dancingscript': ['/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf'],
  'fonts-ipafont-gothic': ['/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf'],
  'poppler-utils': ['/usr/bin/pdfsig', '/usr/bin/pdftoppm'],
  qpdf: ['/usr/bin/qpdf'],
  'redis-server': ['/usr/bin/redis-server'],
  postgresql: ['/usr/lib/postgresql/15/bin/initdb'],
  openssl: ['/usr/bin/openssl'],
  wrk: ['/usr/bin/wrk'],
  'nginx-light': ['/usr/sbin/nginx'],
  haproxy: ['/usr/sbin/haproxy'],
  hyperfine: ['/usr/bin/hyperfine'],
  // HTTP/2 clients: curl (nghttp2 inside) in the gateway's tests, h2load in its benchmark.
  curl: ['/usr/bin/curl'],
  // The gateway's `reuseport` listen flag and worker CPU affinity build small C helpers (packages/gateway/native/).
  gcc: ['/usr/bin/cc'],
  // ss: the gateway's listener tests read each socket's owner and accept queue.
  iproute2: ['/usr/bin/ss'],
  'nghttp2-client': ['/usr/bin/h2load'],
};

const START = ['libreoffice-writer-nogui', 'python3-uno', 'chromium', 'fonts-liberation2',
  'fonts-crosextra-carlito', 'fonts-crosextra-caladea', 'fonts-dancingscript', 'fonts-ipafont-gothic', 'openssl'];
const PURPOSES = {
  start: START,
  test: [...START, 'poppler-utils', 'qpdf', 'redis-server', 'postgresql', 'curl', 'gcc', 'iproute2'],
  bench: [...START, 'poppler-utils', 'wrk', 'nginx-light', 'haproxy', 'hyperfine', 'redis-server', 'nghttp2-client', 'gcc'],
};

function parseArgs(argv) {
  const i = argv.indexOf('--for');
  const purpose = i >= 0 ? argv[i + 1] : 'test';
  if (!(purpose in PURPOSES)) {
    console.error(`setup: unknown purpose "${purpose}" (use one of: ${Object.keys(PURPOSES).join(', ')})`);
    process.exit(2);
  }
  return { purpose, skipNpm: argv.includes('--skip-npm') };
}

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env });
  if (r.status !== 0) {
    console.error(`setup: "${cmd} ${args.join(' ')}" failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.signet-lock-hash');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  if (!existsSync(join(root, 'node_modules'))) {
    console.log('setup: installing npm packages (npm ci; better-sqlite3 compiles for about a minute on a fresh machine)');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  } else {
    // An existing tree is brought up to date in place: npm ci would delete it under the feet of
    // anything running from it. flock serialises concurrent installs on a developer machine.
    console.log('setup: package-lock.json changed; updating node_modules (npm install)');
    const npmInstall = ['npm', 'install', '--no-audit', '--no-fund'];
    if (existsSync('/usr/bin/flock')) run('/usr/bin/flock', ['/tmp/signet-npm.lock', ...npmInstall]);
    else run(npmInstall[0], npmInstall.slice(1));
  }
  writeFileSync(stamp, createHash('sha256').update(readFileSync(lock)).digest('hex'));
}

function isInstalled(pkg) {
  return PACKAGES[pkg].every((p) => existsSync(p));
}

function ensureDebianPackages(purpose) {
  const missing = PURPOSES[purpose].filter((p) => !isInstalled(p));
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`setup: missing Debian packages for "${purpose}": ${missing.join(' ')}\n` +
      `       install them with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`);
    process.exit(1);
  }
  console.log(`setup: installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], env);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], env);
  const still = missing.filter((p) => !isInstalled(p));
  if (still.length > 0) {
    console.error(`setup: apt-get ran but these are still missing: ${still.join(' ')}`);
    process.exit(1);
  }
}

const { purpose, skipNpm } = parseArgs(process.argv.slice(2));
ensureDebianPackages(purpose);
if (!skipNpm) ensureNodeModules();
