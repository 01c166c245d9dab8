// The part of madge (no types of its own) test/lint/layers.test.ts uses.
declare module 'madge' {
  interface MadgeResult {
    circular(): string[][];
  }
  export default function madge(path: string, config?: Record<string, unknown>): Promise<MadgeResult>;
}
