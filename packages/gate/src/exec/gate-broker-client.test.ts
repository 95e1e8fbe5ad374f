import { describe, expect, it } from 'vitest';
import { isReadOnlyMount } from './gate-broker-client.js';

// Lines of /proc/self/mountinfo as bubblewrap leaves them inside `holdfast exec` (seen with bwrap 0.8).
const INSIDE = [
  '80 79 254:0 / / ro,nosuid,nodev,relatime - ext4 /dev/vda rw',
  '97 80 0:45 / /tmp rw,nosuid,nodev,relatime - tmpfs tmpfs rw',
  '99 97 254:0 /tmp/bwtest /tmp/holdfast-gate ro,nosuid,nodev,relatime - ext4 /dev/vda rw,discard',
].join('\n');

describe('isReadOnlyMount: what makes the broker socket the gate’s', () => {
  it('is true only for a mount point of that exact path with its own ro option', () => {
    expect(isReadOnlyMount(INSIDE, '/tmp/holdfast-gate')).toBe(true);
    expect(isReadOnlyMount(INSIDE, '/tmp')).toBe(false);
    expect(isReadOnlyMount(INSIDE, '/tmp/holdfast')).toBe(false);
    // A folder under a read-only mount is not a mount point of its own (outside exec, /tmp/holdfast-gate is a plain folder).
    expect(isReadOnlyMount('80 79 254:0 / / ro,relatime - ext4 /dev/vda rw', '/tmp/holdfast-gate')).toBe(false);
    expect(isReadOnlyMount('', '/tmp/holdfast-gate')).toBe(false);
  });

  it('takes the mount on top: a writable mount over the read-only one is writable', () => {
    const over = `${INSIDE}\n100 99 0:46 / /tmp/holdfast-gate rw,relatime - tmpfs tmpfs rw`;
    expect(isReadOnlyMount(over, '/tmp/holdfast-gate')).toBe(false);
  });

  it('reads the octal escapes mountinfo writes for a space', () => {
    expect(isReadOnlyMount('99 97 254:0 /x /tmp/a\\040b ro,relatime - ext4 /dev/vda rw', '/tmp/a b')).toBe(true);
  });
});
