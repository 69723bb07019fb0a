// A first `npm start` reads well (issue #34): the worker's build says its progress in a few lines, whatever the
// compiler prints (that goes to build/whisper-build.log), and a sub-build's few steps do not end it early.
import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../scripts/lib/whisper-build.js';

describe('the worker build’s progress lines', () => {
  it('says each quarter of the steps once, at most one line every few seconds before the end', () => {
    const said: string[] = [];
    let clock = 0;
    const report = progressReporter(
      (line) => said.push(line),
      () => clock,
    );
    for (let step = 1; step <= 354; step++) {
      clock += 100;
      report(`[${step}/354] Building CXX object ggml/src/ggml-cpu/step-${step}.cpp.o`);
      report('/src/ggml.c:12: warning: unused variable');
    }
    expect(said).toEqual([
      'whisper: 89/354 build steps (25 %)',
      'whisper: 177/354 build steps (50 %)',
      'whisper: 266/354 build steps (75 %)',
      'whisper: 354/354 build steps (100 %)',
    ]);
  });

  it('a sub-build (the Vulkan shader generator: two steps) neither counts nor ends the report', () => {
    const said: string[] = [];
    let clock = 0;
    const report = progressReporter(
      (line) => said.push(line),
      () => (clock += 10_000),
    );
    report('[1/2] Performing build step for vulkan-shaders-gen');
    report('[2/2] Performing install step for vulkan-shaders-gen');
    for (let step = 1; step <= 40; step++) report(`[${step}/40] Generate vulkan shaders`);
    expect(said).toEqual([
      'whisper: 10/40 build steps (25 %)',
      'whisper: 20/40 build steps (50 %)',
      'whisper: 30/40 build steps (75 %)',
      'whisper: 40/40 build steps (100 %)',
    ]);
  });
});
