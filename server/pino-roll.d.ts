// pino-roll ships no types: its build() resolves a sonic-boom stream (pino-roll.js) whose `file` is the file written now.
declare module 'pino-roll' {
  import type SonicBoom from 'sonic-boom';

  type Options = {
    file: string;
    size?: string | number;
    frequency?: string | number;
    mkdir?: boolean;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
  };
  export default function pinoRoll(options: Options): Promise<SonicBoom & { file: string }>;
}
