import { spawnSync } from 'node:child_process';

/**
 * A command prefix that runs a program with no network at all: `unshare --net` gives it a
 * fresh network namespace whose only interface, loopback, is down. LibreOffice still talks to
 * its UNO worker over a named pipe, a file in /tmp, which a network namespace does not touch.
 * It needs CAP_SYS_ADMIN (root, as on the project's machines); undefined where it is refused,
 * and then the profile settings (BlockUntrustedRefererLinks) are the only guard.
 */
export function detectNetworkSandbox(unshare = '/usr/bin/unshare'): readonly string[] | undefined {
  const probe = spawnSync(unshare, ['--net', '--', 'true'], { stdio: 'ignore', timeout: 5000 });
  return probe.status === 0 ? [unshare, '--net', '--'] : undefined;
}
