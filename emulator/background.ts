/**
 * Work an emulator starts and nobody awaits (imports, webhook attempts): its failure is logged and
 * settles, so no background error becomes an unhandled rejection that would end the host process
 * (a test runner, an app that embeds the emulator).
 */

/** `work`, settled: resolves when it ends, whether it succeeded or failed (failures are logged as `what`). */
export function inBackground(work: Promise<unknown>, what: string): Promise<void> {
  return work.then(
    () => undefined,
    (error: unknown) => console.error(`[sitekit emulator] ${what} failed:`, error),
  );
}
