/**
 * Ironic's alembic revision history (upstream, oldest first), used to decide whether a database
 * created by Python Ironic can be adopted: it must be at 21.4.4's head or later.
 */

const ALEMBIC_HISTORY: readonly string[] = [
  '2581ebaf0cb2', '21b331f883ef', '3cb628139ea4', '31baaf680d2b', '3bea56f25597', '487deb87cc9d',
  '242cc6a923b3', '5674c57409b9', 'bb59b63f55a', '3ae36a5f5131', '1e1d5ace7dc6', '4f399b21ae71',
  '2fb93ffd2af1', '789acc877671', '516faf1bb9b1', '48d6c242bb9b', '5ea1b0d310e', 'f6fdb920c182',
  'e294876e8028', '10b163d4481e', 'dd34e1f1303b', 'c14cef6dfedf', '60cf717201bc', 'bcdd431ba0bf',
  'daa1ba02d98', '1a59178ebdf6', '493d8f27f235', '1d6951876d68', '2353895ecfae', 'dbefd6bdaa2c',
  '3d86a077a3f2', '868cb606a74a', '405cfe08f18d', 'b4130a7fc904', 'e918ff30eb42', '82c315d60161',
  '2d13bc3d6bba', 'fb3f10dd262e', 'b9117ac17882', '664f85c2f622', 'd2b036ae9378', '93706939026c',
  'f190f9d00a11', 'dd67b91a1981', '9cbeefa3763f', '28c44432c9c3', '2aac7e0872f6', '1e15e7122cc9',
  'ce6c4b3cf5a2', 'cd2c80feb331', 'b2ad35726bb0', 'cf1a80fdb352', 'c0455649680c', 'ac00b586ab95',
  '2bbd96b6ccb9', 'c1846a214450', '9ef41f07cb58', '0ac0f39bc5aa', '4dbec778866e', 'fe222f476baf',
  '163040c5513f', 'd163df1bab88', 'aa2384fee727', '01f21d5e5195', '66bd9c5604d5', '6e9cf6acce0b',
  '21c48150dea9', '1c14278d6e33', 'e4827561979d', '3ef27505c9fb', 'd0821744f9e2', '763b2f62d215',
  '15e9d00367b0', '9f8c7d6e5b4a', '9c0446cb6bc3', 'c1fd28861bb9', '2a3b4c5d6e7f', 'e2d316b60d9e',
  '16990309ad9d', '772c0e7e8299', '9fb44677ef15',
];

/** Alembic head of Ironic 21.4.4 ("create node.shard"). */
export const IRONIC_21_4_4_HEAD = '4dbec778866e';

type AlembicVerdict = 'adoptable' | 'too-old' | 'unknown';

export function judgeAlembicRevision(revision: string): AlembicVerdict {
  const at = ALEMBIC_HISTORY.indexOf(revision);
  if (at < 0) return 'unknown';
  return at >= ALEMBIC_HISTORY.indexOf(IRONIC_21_4_4_HEAD) ? 'adoptable' : 'too-old';
}
