// Faults that tests inject into the sandbox: each matches requests by method and path and
// applies to the next `times` of them.

export interface Fault {
  method?: string;
  /** Matches a path equal to it or below it (without the query). */
  path?: string;
  /** How many matching requests it applies to; 1 unless given. */
  times?: number;
  /** Answer with this status instead of the real response. */
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  retry_after?: string;
  /** Wait this long before answering. */
  delay_ms?: number;
  /** Close the connection without answering. */
  drop?: boolean;
  /** Send the headers and half the body, then reset the connection. */
  reset_mid_body?: boolean;
  /** Replace the real body: an HTML page, cut-off JSON, nothing, JSON of another shape, or an endless body. */
  malformed?: 'html' | 'truncated' | 'empty' | 'wrong_shape' | 'huge';
  /** Redirect to this absolute URL with 307. */
  redirect_to?: string;
}

function matches(fault: Fault, method: string, pathname: string): boolean {
  if (fault.method && fault.method.toUpperCase() !== method) return false;
  if (fault.path) {
    const base = fault.path.replace(/\/+$/, '');
    const path = pathname.replace(/\/+$/, '');
    if (path !== base && !path.startsWith(`${base}/`)) return false;
  }
  return true;
}

/** Takes the first fault that matches, counting one use of it. */
export function takeFault(faults: Fault[], method: string, pathname: string): Fault | undefined {
  const index = faults.findIndex((f) => matches(f, method, pathname));
  if (index < 0) return undefined;
  const fault = faults[index] as Fault;
  const left = (fault.times ?? 1) - 1;
  if (left <= 0) faults.splice(index, 1);
  else fault.times = left;
  return fault;
}
