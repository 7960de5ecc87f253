import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBalance, signTransaction } from '../../../src/providers/reseller/sign.ts';

/** Computed once in a shell: `printf %s 'DEMO-RESELLERdemo-key-123' | md5sum`. */
const fixedBalanceSign = '9c9d1d6683688fc8b264fe25e911e780';
/** `printf %s 'DEMO-RESELLERdemo-key-12301JH8Z3Q4X5Y6Z7A8B9C0D1E2F' | md5sum`. */
const fixedTransactionSign = 'fcd4f53b9dee576b6c3aae708d7212fe';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('signBalance (variant A)', () => {
  it('matches a digest computed outside Node', () => {
    expect(signBalance('DEMO-RESELLER', 'demo-key-123')).toBe(fixedBalanceSign);
  });

  it('is md5(api_id + api_key) in lowercase hex', () => {
    const sign = signBalance('R-000123', 'AbC+/=key');
    expect(sign).toBe(md5('R-000123' + 'AbC+/=key'));
    expect(sign).toMatch(/^[0-9a-f]{32}$/);
  });

  it('trims pasted credentials', () => {
    expect(signBalance('  DEMO-RESELLER\n', '\tdemo-key-123 ')).toBe(fixedBalanceSign);
  });
});

describe('signTransaction (variant B)', () => {
  it('matches a digest computed outside Node', () => {
    expect(signTransaction('DEMO-RESELLER', 'demo-key-123', '01JH8Z3Q4X5Y6Z7A8B9C0D1E2F')).toBe(fixedTransactionSign);
  });

  it('is md5(api_id + api_key + ref_id), different from variant A', () => {
    const sign = signTransaction('R-000123', 'secret', 'REF42');
    expect(sign).toBe(md5('R-000123' + 'secret' + 'REF42'));
    expect(sign).not.toBe(signBalance('R-000123', 'secret'));
    expect(sign).toMatch(/^[0-9a-f]{32}$/);
  });

  it('hashes non-ASCII text as UTF-8', () => {
    expect(signTransaction('id', 'kunci-rahasia-é', 'ref')).toBe(md5('idkunci-rahasia-éref'));
  });

  it('trims the credentials but not the ref_id', () => {
    expect(signTransaction(' DEMO-RESELLER ', ' demo-key-123\n', '01JH8Z3Q4X5Y6Z7A8B9C0D1E2F')).toBe(fixedTransactionSign);
    expect(signTransaction('DEMO-RESELLER', 'demo-key-123', ' 01JH8Z3Q4X5Y6Z7A8B9C0D1E2F')).not.toBe(fixedTransactionSign);
  });
});
