import { stopWithParent } from '@signet/kit';

/**
 * Resolves on the first SIGTERM, SIGINT or SIGQUIT (Kong's graceful `kong quit`), or, when started by npm start's supervisor
 * (SIGNET_STOP_WITH_PARENT=1, checked at start), when the supervisor is gone.
 */
export function stopSignal(supervised: boolean): Promise<string> {
  return new Promise((resolve) => {
    let release = () => {};
    const on = (signal: string) => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      process.off('SIGQUIT', on);
      release();
      resolve(signal);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
    process.on('SIGQUIT', on);
    if (supervised) release = stopWithParent(() => on('supervisor gone'));
  });
}
