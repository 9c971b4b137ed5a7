/** Bounds a driver call in time so a hung BMC cannot hold a node lock forever. */
class DeadlineExceeded extends Error {
  constructor(what: string, seconds: number) {
    super(`${what} did not complete within ${seconds} seconds`);
    this.name = 'DeadlineExceeded';
  }
}

export async function withDeadline<T>(work: Promise<T>, seconds: number, what: string,
  onTimeout: () => Error = () => new DeadlineExceeded(what, seconds)): Promise<T> {
  if (!(seconds > 0)) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), seconds * 1000);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
