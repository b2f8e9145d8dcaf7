import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Brand } from '../../src/domain/brands/brand.ts';
import { checkLogo } from '../../src/domain/brands/check-logo.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { BrandsRepository } from '../../src/store/brands-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { gif, png } from '../support/images.ts';

function brand(accountId: string, name: string, extra: Partial<Brand> = {}): Brand {
  return { brandId: randomUUID(), accountId, name, languages: ['en'], colors: { headerBackground: '#102030' }, isSigningDefault: false, isSendingDefault: false, logos: {}, createdAt: new Date('2026-05-06T07:08:09.123Z'), ...extra };
}

describe('brands repository', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: round trip, one default per account, logos by content, always within one account`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const accounts = new AccountsRepository(db);
      const make = async () => {
        const a = await accounts.createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: new Date() });
        assert.ok(a);
        return a.accountId;
      };
      const [mine, theirs] = [await make(), await make()];
      const repo = new BrandsRepository(db);
      const a = brand(mine, 'Acme', { company: 'Acme & Co', defaultLanguage: 'de', isSigningDefault: true });
      const b = brand(mine, 'Beta');
      const c = brand(theirs, 'Theirs', { isSigningDefault: true });
      for (const x of [a, b, c]) await repo.save(x, { create: true });
      assert.deepEqual(await repo.find(mine, a.brandId), a);
      assert.equal(await repo.find(mine, c.brandId), undefined, 'another account’s brand is not found');
      assert.deepEqual((await repo.list(mine)).map((x) => x.name), ['Acme', 'Beta']);
      assert.equal((await repo.signingDefault(mine))?.brandId, a.brandId);

      // A new default takes the place of the old one, in this account only.
      await repo.save({ ...b, isSigningDefault: true, colors: { buttonPrimaryText: '#ffffff' } }, { create: false });
      assert.equal((await repo.signingDefault(mine))?.brandId, b.brandId);
      assert.equal((await repo.find(mine, a.brandId))?.isSigningDefault, false);
      assert.equal((await repo.signingDefault(theirs))?.brandId, c.brandId);
      // An update naming another account changes nothing there.
      await repo.save({ ...c, accountId: mine, name: 'taken' }, { create: false });
      assert.equal((await repo.find(theirs, c.brandId))?.name, 'Theirs');

      // Logos: stored once by content, shared by slots, kept when a brand lets go of them.
      const image = png(8, 4);
      const logo = checkLogo(image);
      await repo.putLogo(mine, a.brandId, 'primary', logo, image);
      await repo.putLogo(mine, b.brandId, 'email', logo, image);
      await repo.putLogo(theirs, a.brandId, 'secondary', checkLogo(gif()), gif());
      assert.deepEqual((await repo.find(mine, a.brandId))?.logos, { primary: logo });
      assert.deepEqual(await repo.logoImage(logo.sha256), { mediaType: 'image/png', bytes: new Uint8Array(image) });
      assert.equal(await repo.logoImage(checkLogo(gif()).sha256), undefined, 'a write naming another account stores nothing');
      await repo.deleteLogo(theirs, a.brandId, 'primary');
      assert.ok((await repo.find(mine, a.brandId))?.logos.primary);
      await repo.deleteLogo(mine, a.brandId, 'primary');
      assert.deepEqual((await repo.find(mine, a.brandId))?.logos, {});

      await repo.delete(theirs, [a.brandId]);
      assert.ok(await repo.find(mine, a.brandId), 'another account cannot delete it');
      await repo.delete(mine, [a.brandId, b.brandId]);
      assert.deepEqual(await repo.list(mine), []);
      assert.ok(await repo.logoImage(logo.sha256), 'the image stays for envelopes sent with it');
      assert.equal((await repo.list(theirs)).length, 1);
    });
  }
});
