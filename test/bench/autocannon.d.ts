// The part of autocannon (9.x, no types of its own) the cluster bench uses.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    statusCodeStats?: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Record<string, unknown>): Promise<Result>;
  export default autocannon;
}
