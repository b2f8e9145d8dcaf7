import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROFILE_SETTINGS, SOFFICE_RESTART } from './office-worker.ts';

/**
 * The cold path: one `soffice --convert-to pdf` process per document, with its own throw-away
 * profile (sharing one between concurrent processes loses documents). ~0.9 s per document;
 * used only when the warm worker cannot start or dies under a document.
 * Resolves with the PDF's path inside `outDir`.
 */
export async function convertWithColdSoffice(
  /** soffice.bin itself, as for the warm workers, and its sandbox prefix. */
  paths: { soffice: string; sandbox?: readonly string[] | undefined },
  input: string,
  outDir: string,
  signal: AbortSignal,
  infilter?: string,
): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'signet-lo-cold-'));
  try {
    await mkdir(join(profile, 'user'));
    await writeFile(join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const args = [
      '--headless', '--invisible', '--nologo', '--norestore', '--nolockcheck',
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      ...(infilter ? [`--infilter=${infilter}`] : []),
      '--convert-to', 'pdf:writer_pdf_Export', '--outdir', outDir, input,
    ];
    let stderr = '';
    let code: number | null = SOFFICE_RESTART;
    // A fresh profile makes soffice.bin exit with 81 once, asking to be started again.
    for (let attempt = 0; code === SOFFICE_RESTART && attempt < 3; attempt++) {
      signal.throwIfAborted();
      const [command, ...prefix] = [...(paths.sandbox ?? []), paths.soffice];
      const child = spawn(command, [...prefix, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
      const onAbort = (): void => void child.kill('SIGKILL');
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        code = await new Promise<number | null>((resolve, reject) => {
          child.once('error', reject);
          child.once('exit', (c) => resolve(c));
        });
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    signal.throwIfAborted();
    const want = basename(input, extname(input)) + '.pdf';
    if (!(await readdir(outDir)).includes(want)) {
      throw new Error(`soffice --convert-to exited ${code} without a PDF: ${stderr.trim()}`);
    }
    return join(outDir, want);
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
