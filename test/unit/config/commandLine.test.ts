import { describe, expect, it } from 'vitest';
import { UsageError, parseCommandLine } from '../../../gateway/config/index.js';

describe('parseCommandLine usage errors', () => {
  const refusal = (argv: string[]) => {
    try {
      parseCommandLine(argv, {});
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error(`${argv.join(' ')} was accepted`);
  };

  it('a value after a space that starts with "-" is named, with the = form to pass it', () => {
    expect(refusal(['serve', '--port', '-1'])).toBe(
      '--port needs a value; "-1" is read as a flag (write --port=<value> to pass one that starts with "-") for "scigate serve"; run "scigate serve --help" to see its flags.',
    );
    // The = form reaches the flag's own check, which says what a port is.
    expect(refusal(['serve', '--port=-1'])).toBe('--port must be a port number 0–65535, not "-1".');
  });

  it('a flag without its value, or an unknown flag, is named', () => {
    expect(refusal(['serve', '--port'])).toBe('--port needs a value for "scigate serve"; run "scigate serve --help" to see its flags.');
    expect(refusal(['serve', '--prot', '1'])).toBe('Unknown flag --prot for "scigate serve"; run "scigate serve --help" to see its flags.');
  });
});
