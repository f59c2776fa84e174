// A non-loopback address on this machine for a test's own servers, made by the test and removed
// after it. EndpointSlices may not point at loopback, so a webhook reached through a Service needs
// another local address; taking the machine's real interface would send test traffic to whatever
// network that address serves. Instead the test creates a network namespace with a veth pair: the
// host end gets a private /30 address the test listens on, and deleting the namespace deletes both
// ends. Traffic to it never leaves the host. No Go counterpart.
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestAddress {
  /** The host end's IPv4 address (non-loopback, local to this machine). */
  readonly address: string;
  close(): Promise<void>;
}

/** Why no test address can be made here (not root, no `ip`), or undefined when it can. */
export async function testAddressUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'a test network namespace needs root (ip netns)';
  try {
    await run('ip', ['netns', 'list']);
    return undefined;
  } catch (err) {
    return `ip netns is not usable here: ${(err as Error).message}`;
  }
}

/** Creates the namespace and veth pair; the caller listens on `address` and calls close(). */
export async function createTestAddress(): Promise<TestAddress> {
  const id = `${process.pid % 10000}${randomInt(1000)}`;
  const ns = `kapi-test-${id}`;
  const hostEnd = `kth${id}`;
  const nsEnd = `ktn${id}`;
  // 10.251.x.y/30 from the id: private, outside kapi's default service range 10.0.0.0/24.
  const n = Number(id) % 16384;
  const base = `10.251.${Math.floor(n / 64)}.${(n % 64) * 4}`;
  const octets = base.split('.').map(Number);
  const at = (k: number): string => [octets[0], octets[1], octets[2], (octets[3] ?? 0) + k].join('.');
  const steps: string[][] = [
    ['netns', 'add', ns],
    ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd],
    ['link', 'set', nsEnd, 'netns', ns],
    ['addr', 'add', `${at(1)}/30`, 'dev', hostEnd],
    ['link', 'set', hostEnd, 'up'],
    ['-n', ns, 'addr', 'add', `${at(2)}/30`, 'dev', nsEnd],
    ['-n', ns, 'link', 'set', nsEnd, 'up'],
  ];
  const close = async (): Promise<void> => {
    await run('ip', ['link', 'del', hostEnd]).catch(() => undefined);
    await run('ip', ['netns', 'del', ns]).catch(() => undefined);
  };
  try {
    for (const args of steps) await run('ip', args);
  } catch (err) {
    await close();
    throw err;
  }
  return { address: at(1), close };
}
