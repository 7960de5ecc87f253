import { describe, expect, it } from 'vitest';
import { accountSchema, itemSchema, purchaseSchema, supportStateOf } from '../../../src/providers/marketplace/schemas.ts';

const account = {
  name: { firstname: 'Rizky', lastname: 'Pratama', full_name: 'Rizky Pratama' },
  username: 'nusantara-studio',
  email: 'rizky@example.com',
  balance: 12.5,
  currency: 'USD',
  profile: {
    heading: '',
    description: '',
    contact: { email: 'support@example.com' },
    social_links: { mastodon: 'https://mastodon.example.org/@rizky' },
    media: { avatar: 'https://cdn.example.com/a.png', cover: 'https://cdn.example.com/c.jpg' },
  },
  registered_at: '2019-04-11T02:37:15Z',
};

const item = {
  id: 1,
  name: 'Kopi',
  description: 'Theme',
  category: 'WordPress',
  sub_category: 'Cafes',
  options: [],
  version: '2.4.1',
  demo_link: 'https://demo.example.org/kopi/',
  tags: ['coffee'],
  media: { thumbnail: 'https://cdn.example.com/t.jpg' },
  price: { regular: 59, extended: 2950 },
  currency: 'USD',
  published_at: '2022-08-14T03:21:09Z',
};

const purchase = {
  purchase_code: '8f2c1a3e-5b7d-4e91-a6c0-2d4f8b9e1c37',
  license_type: 'Regular',
  price: 59,
  currency: 'USD',
  item: { id: 1, name: 'Kopi', url: 'https://market.example.com/item/kopi/1', media: { preview_image: 'https://cdn.example.com/p.jpg' } },
  downloaded: true,
  date: '2025-01-01T00:00:00Z',
};

describe('marketplace schemas', () => {
  it('keeps any social network and reads an empty PHP array as no links', () => {
    expect(accountSchema.parse(account).profile.social_links).toEqual({ mastodon: 'https://mastodon.example.org/@rizky' });
    const bare = { ...account, profile: { ...account.profile, social_links: [] } };
    expect(accountSchema.parse(bare).profile.social_links).toEqual({});
    const nullLink = { ...account, profile: { ...account.profile, social_links: { x: null, github: 'https://github.example.com/r' } } };
    expect(accountSchema.parse(nullLink).profile.social_links).toEqual({ github: 'https://github.example.com/r' });
  });

  it('accepts decimal strings and digit-string ids, drops extra fields', () => {
    expect(accountSchema.parse({ ...account, balance: '1284.50', plan: 'elite' })).not.toHaveProperty('plan');
    expect(accountSchema.parse({ ...account, balance: '1284.50' }).balance).toBe(1284.5);
    expect(itemSchema.parse({ ...item, id: '48201', price: { regular: '59', extended: '2950.00' } })).toMatchObject({
      id: 48201,
      price: { regular: 59, extended: 2950 },
    });
  });

  it('lets optional media be absent or null, screenshots defaulting to []', () => {
    const parsed = itemSchema.parse({
      ...item,
      media: { ...item.media, preview_image: null, preview_audio: 'https://cdn.example.com/a.mp3' },
    });
    expect(parsed.media).toEqual({ thumbnail: item.media.thumbnail, preview_audio: 'https://cdn.example.com/a.mp3', screenshots: [] });
  });

  it('rejects what the spec rules out', () => {
    expect(itemSchema.safeParse({ ...item, id: 1.5 }).success).toBe(false);
    expect(itemSchema.safeParse({ ...item, published_at: 'yesterday' }).success).toBe(false);
    expect(itemSchema.safeParse({ ...item, price: { regular: 'free', extended: 1 } }).success).toBe(false);
    expect(purchaseSchema.safeParse({ ...purchase, downloaded: 'yes' }).success).toBe(false);
  });

  it('tells active, expired and absent support apart', () => {
    const now = Date.parse('2025-01-31T06:00:00Z');
    const parsed = purchaseSchema.parse({ ...purchase, supported_until: null, downloaded: 0 });
    expect(parsed.supported_until).toBeUndefined();
    expect(parsed.downloaded).toBe(false);
    expect(supportStateOf(parsed, now)).toBe('none');
    expect(supportStateOf(purchaseSchema.parse({ ...purchase, supported_until: '2025-07-31T06:00:00Z' }), now)).toBe('active');
    expect(supportStateOf(purchaseSchema.parse({ ...purchase, supported_until: '2024-12-31T06:00:00Z' }), now)).toBe('expired');
  });
});
