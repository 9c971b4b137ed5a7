/** update_image_type: what the conductor records about the instance image before deploy/adopt. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { updateImageType } from '../../src/conductor/image-type';
import type { Task } from '../../src/conductor/task';

function taskWith(instanceInfo: Record<string, unknown>): Task {
  return { node: { instance_info: instanceInfo, driver_internal_info: { keep: 1 } } } as unknown as Task;
}

test('no image source: nothing recorded', () => {
  const task = taskWith({});
  assert.equal(updateImageType(task), false);
  assert.deepEqual(task.node.driver_internal_info, { keep: 1 });
});

test('an explicit image_type wins', () => {
  const task = taskWith({ image_source: 'http://h/img', image_type: 'partition' });
  assert.equal(updateImageType(task), true);
  assert.deepEqual(task.node.driver_internal_info, { keep: 1, is_whole_disk_image: false });
  assert.equal(task.node.instance_info?.image_type, 'partition');
});

test('a URL without kernel and ramdisk is a whole-disk image; with them a partition image', () => {
  const whole = taskWith({ image_source: 'http://h/img' });
  assert.equal(updateImageType(whole), true);
  assert.equal(whole.node.driver_internal_info?.is_whole_disk_image, true);
  assert.equal(whole.node.instance_info?.image_type, 'whole-disk');
  const part = taskWith({ image_source: 'http://h/img', kernel: 'http://h/k', ramdisk: 'http://h/r' });
  updateImageType(part);
  assert.equal(part.node.instance_info?.image_type, 'partition');
});

test('a Glance image without image_type is left undecided (no Glance to ask)', () => {
  for (const source of ['glance://img', '3f1e6b4c-5a2d-4d8e-9a3b-1c2d3e4f5a6b']) {
    const task = taskWith({ image_source: source });
    assert.equal(updateImageType(task), false);
    assert.equal(task.node.instance_info?.image_type, undefined);
  }
});
