import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNewUsers } from './parse-user-admin.ts';

test('parseNewUsers: a group named twice in groupList is one membership (a second insert was a 500)', () => {
  const [invitee] = parseNewUsers({ newUsers: [{ email: 'Ann@Example.test', userName: 'Ann', groupList: [{ groupId: 'g1' }, { groupId: 'g2' }, { groupId: 'g1' }] }] });
  assert.deepEqual(invitee?.groupIds, ['g1', 'g2']);
});
