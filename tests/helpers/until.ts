/** Polls `check` until it holds (every `everyMs`), or fails naming `what` after `ms`: waiting for a state, never for a time. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
  everyMs = 20,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
