import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PostStartHooks, type PostStartHook } from './post-start-hooks.ts';

const health = async (h: PostStartHooks): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  for (const c of h.healthChecks()) {
    try { await c.check(); out[c.name] = 'ok'; } catch (err) { out[c.name] = (err as Error).message; }
  }
  return out;
};

describe('PostStartHooks', () => {
  it('runs hooks in order, lists the listed ones as poststarthook/<name> failing until done, stops in reverse', async () => {
    const log: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => { release = r; });
    const hook = (name: string, listed = true, wait?: Promise<void>): PostStartHook => ({
      name, listed,
      start: async () => { log.push(`start ${name}`); await wait; },
      stop: () => { log.push(`stop ${name}`); },
    });
    const hooks = new PostStartHooks([hook('a'), hook('controller', false), hook('b', true, gate)]);
    const running = hooks.runAll();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(await health(hooks), { 'poststarthook/a': 'ok', 'poststarthook/b': 'not finished' });
    release();
    await running;
    assert.deepEqual(await health(hooks), { 'poststarthook/a': 'ok', 'poststarthook/b': 'ok' });
    await hooks.stopAll();
    assert.deepEqual(log, ['start a', 'start controller', 'start b', 'stop b', 'stop controller', 'stop a']);
  });

  it('fails the start with the first failing hook, and stops only what was started', async () => {
    const log: string[] = [];
    const hooks = new PostStartHooks([
      { name: 'a', start: () => { log.push('start a'); }, stop: () => { log.push('stop a'); } },
      { name: 'b', start: () => { throw new Error('boom'); }, stop: () => { log.push('stop b'); } },
      { name: 'c', start: () => { log.push('start c'); }, stop: () => { log.push('stop c'); } },
    ]);
    await assert.rejects(hooks.runAll(), /boom/);
    assert.deepEqual(await health(hooks), { 'poststarthook/a': 'ok', 'poststarthook/b': 'not finished', 'poststarthook/c': 'not finished' });
    await hooks.stopAll();
    assert.deepEqual(log, ['start a', 'stop b', 'stop a']);
  });

  it('refuses a name registered twice, as AddPostStartHook does', () => {
    assert.throws(() => new PostStartHooks([{ name: 'x', start: () => {} }, { name: 'x', start: () => {} }]),
      { message: 'unable to add "x" because it was already registered' });
  });
});
