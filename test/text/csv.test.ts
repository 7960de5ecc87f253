import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, csvLine, transactionCsvRow, wibDateTime } from '../../src/text/csv.ts';
import type { TransactionRecord } from '../../src/store/records/transactions.ts';

const bom = '\uFEFF';

/** A tiny RFC 4180 reader (for round trips): fields, quoted fields with "" and line breaks. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

const tx = (overrides: Partial<TransactionRecord> = {}): TransactionRecord => ({
  refId: '01KAMZ0000AAAABBBBCCCCDDDD',
  userId: 1,
  chatId: 1,
  code: 'TSEL10',
  productName: 'Telkomsel 10.000',
  target: '081234567890',
  price: 10500,
  status: 'Sukses',
  trxId: 'TRX-1',
  sn: '1234',
  createdAt: '2026-11-22T17:05:09.000Z',
  updatedAt: '2026-11-22T17:05:09.000Z',
  checks: 0,
  ...overrides,
});

describe('CSV fields (RFC 4180)', () => {
  it('leaves plain fields alone and writes numbers as digits', () => {
    expect(csvField('TSEL10', ',')).toBe('TSEL10');
    expect(csvField(10500, ',')).toBe('10500');
    expect(csvField(undefined, ',')).toBe('');
  });

  it('quotes fields with the separator, quotes or line breaks, doubling the quotes', () => {
    expect(csvField('a,b', ',')).toBe('"a,b"');
    expect(csvField('a,b', ';')).toBe('a,b');
    expect(csvField('a;b', ';')).toBe('"a;b"');
    expect(csvField('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvField('two\nlines', ',')).toBe('"two\nlines"');
    expect(csvField('cr\rlf', ';')).toBe('"cr\rlf"');
  });

  it('guards against formulas: a text starting with = + - @ gets a leading quote', () => {
    expect(csvField('=HYPERLINK("http://x")', ',')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+62812', ',')).toBe("'+62812");
    expect(csvField('-1+1', ';')).toBe("'-1+1");
    expect(csvField('@SUM(A1)', ',')).toBe("'@SUM(A1)");
    expect(csvField('0812=3', ',')).toBe('0812=3');
  });

  it('joins a line with the separator', () => {
    expect(csvLine(['a', 1, undefined, 'b;c'], ';')).toBe('a;1;;"b;c"');
  });
});

describe('the transactions CSV document', () => {
  const header = ['Waktu (WIB)', 'Ref ID', 'Trx ID', 'Kode', 'Produk', 'Tujuan', 'Harga', 'Harga jual', 'Margin', 'Status', 'SN'];
  const statusOf = (record: TransactionRecord) => record.status;

  it('writes times in WIB (UTC+7), across midnight', () => {
    expect(wibDateTime('2026-11-22T17:05:09.000Z')).toBe('2026-11-23 00:05:09');
    expect(wibDateTime('2026-11-30T16:59:59.999Z')).toBe('2026-11-30 23:59:59');
  });

  it('starts with a BOM and a header row, CRLF line ends, one row per transaction, and parses back to the same rows', () => {
    const tricky = tx({
      refId: 'R2',
      productName: 'Paket "Combo"; 10GB,\n30 hari',
      target: '=1+1',
      sn: undefined,
      trxId: undefined,
      status: 'Gagal',
      sellPrice: 11_000,
      margin: 500,
    });
    const buffer = csvDocument(
      header,
      [tx(), tricky].map((record) => transactionCsvRow(record, statusOf)),
      ',',
    );
    const text = buffer.toString('utf8');
    expect(text.startsWith(bom)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text.slice(1), ',')).toEqual([
      header,
      [
        '2026-11-23 00:05:09',
        '01KAMZ0000AAAABBBBCCCCDDDD',
        'TRX-1',
        'TSEL10',
        'Telkomsel 10.000',
        '081234567890',
        '10500',
        // Stored before sell prices: sold at cost.
        '10500',
        '0',
        'Sukses',
        '1234',
      ],
      // A Gagal transaction earned nothing: no margin.
      ['2026-11-23 00:05:09', 'R2', '', 'TSEL10', 'Paket "Combo"; 10GB,\n30 hari', "'=1+1", '10500', '11000', '', 'Gagal', ''],
    ]);
    const semicolons = csvDocument(
      header,
      [tx(), tricky].map((record) => transactionCsvRow(record, statusOf)),
      ';',
    ).toString('utf8');
    expect(semicolons.split('\r\n')[0]).toBe(`${bom}${header.join(';')}`);
    expect(parseCsv(semicolons.slice(1), ';')[2]?.[4]).toBe('Paket "Combo"; 10GB,\n30 hari');
  });

  it('builds 20,000 rows in one document', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => tx({ refId: `R${i}` }));
    const buffer = csvDocument(
      header,
      records.map((record) => transactionCsvRow(record, statusOf)),
      ',',
    );
    expect(buffer.toString('utf8').split('\r\n')).toHaveLength(20_002);
  });
});
