/** CPU time a process has used (utime + stime from /proc), a load-independent cost measure for benches. */
import * as fs from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

export function cpuSeconds(pid: number): number {
  // Fields after "pid (comm) ": state is index 0, so utime/stime (fields 14/15 of stat) are 11/12.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}
