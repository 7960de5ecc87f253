/**
 * The audit of the downlines' wallets an operator runs (/audit): every rupiah of each wallet
 * against its ledger and its purchases. The ledger's entries carry their running balance (a cached
 * sum); the audit proves it equal to the sum of the amounts, and each purchase's entries equal to
 * what its status says happened. It reads only; a finding is for a person to look at.
 */
import type { Db } from '../store/db.ts';
import type { LedgerEntry } from '../store/records/ledger.ts';
import { isFinalStatus, type TransactionRecord } from '../store/records/transactions.ts';

/** Something in a wallet that does not add up. */
export interface WalletFinding {
  wallet: number;
  /** `chain`: an entry's position or running balance; `sum`: the balance against the entries; `purchase`: a purchase's entries against its status. */
  kind: 'chain' | 'sum' | 'purchase';
  refId?: string;
  /** What was found, in the operator's words (English, like the logs). */
  detail: string;
}

/** One wallet's audit: its balance, what is held for open purchases, and the findings. */
export interface WalletAudit {
  wallet: number;
  balance: number;
  held: number;
  entries: number;
  findings: WalletFinding[];
}

/** The entries a purchase's status calls for after its hold: none while open, a final for Sukses, a refund for Gagal and refusals. */
function expectedClosing(tx: TransactionRecord): 'none' | 'final' | 'refund' | 'either' {
  if (!isFinalStatus(tx.status)) return 'none';
  if (tx.status === 'Sukses') return 'final';
  if (tx.status === 'Gagal' || tx.status === 'Rejected') return 'refund';
  // Unresolved: held until the upline decides (/selesaikan), then either.
  return 'either';
}

/**
 * Audits one wallet: `entries` all of its entries, oldest first; `balance` what the store says it
 * holds; `purchases` the downline's purchases (those paid from the wallet are checked).
 */
export function auditWallet(
  wallet: number,
  entries: readonly LedgerEntry[],
  balance: number,
  purchases: readonly TransactionRecord[],
): WalletAudit {
  const findings: WalletFinding[] = [];
  const find = (kind: WalletFinding['kind'], detail: string, refId?: string) =>
    findings.push({ wallet, kind, detail, ...(refId === undefined ? {} : { refId }) });
  let running = 0;
  entries.forEach((entry, index) => {
    running += entry.amount;
    if (entry.seq !== index + 1) find('chain', `entry ${index + 1} has position ${entry.seq}`);
    if (entry.balance !== running) find('chain', `entry ${entry.seq} says balance ${entry.balance}, its entries sum to ${running}`);
    if (running < 0) find('chain', `entry ${entry.seq} takes the balance below zero (${running})`);
  });
  if (balance !== running) find('sum', `the store says ${balance}, the entries sum to ${running}`);
  const byRef = new Map<string, LedgerEntry[]>();
  for (const entry of entries) if (entry.refId !== undefined) byRef.set(entry.refId, [...(byRef.get(entry.refId) ?? []), entry]);
  let held = 0;
  const paid = purchases.filter((tx) => tx.upline !== undefined && tx.price > 0);
  for (const tx of paid) {
    const own = byRef.get(tx.refId) ?? [];
    const hold = own.find((entry) => entry.kind === 'hold');
    const closing = own.find((entry) => entry.kind === 'final' || entry.kind === 'refund');
    if (!hold) {
      find('purchase', `${tx.status} purchase of ${tx.price} has no hold`, tx.refId);
      continue;
    }
    if (hold.amount !== -tx.price) find('purchase', `held ${-hold.amount} for a purchase of ${tx.price}`, tx.refId);
    const expected = expectedClosing(tx);
    const got = closing?.kind ?? 'none';
    if (expected !== got && !(expected === 'either'))
      find('purchase', `${tx.status} purchase closed by ${got}, expected ${expected}`, tx.refId);
    if (!closing) held += tx.price;
  }
  // A hold whose purchase is not among the downline's (it should always be).
  const known = new Set(paid.map((tx) => tx.refId));
  for (const [refId, own] of byRef) {
    if (own.some((entry) => entry.kind === 'hold') && !known.has(refId)) find('purchase', 'a hold without its purchase', refId);
  }
  return { wallet, balance, held, entries: entries.length, findings };
}

/** Entries and purchases are read in pages of this many. */
const pageSize = 500;

/** Audits every wallet: the current downlines' and the former ones' their uplines remember. */
export class WalletAuditService {
  constructor(private readonly db: Pick<Db, 'users' | 'ledger' | 'transactions'>) {}

  /** The audit of each wallet, findings first. */
  async run(): Promise<WalletAudit[]> {
    const users = await this.db.users.list({ where: (user) => user.membership !== undefined || user.downlineMode !== undefined });
    const wallets = new Set<number>();
    for (const user of users) {
      if (user.membership) wallets.add(user.id);
      for (const former of user.downlineMode?.formerDownlines ?? []) wallets.add(former);
    }
    const audits: WalletAudit[] = [];
    for (const wallet of [...wallets].sort((a, b) => a - b)) audits.push(await this.audit(wallet));
    return audits.sort((a, b) => b.findings.length - a.findings.length);
  }

  /** One wallet's audit. */
  async audit(wallet: number): Promise<WalletAudit> {
    const entries: LedgerEntry[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.db.ledger.statement(wallet, { limit: pageSize, offset });
      entries.push(...page);
      if (page.length < pageSize) break;
    }
    entries.reverse();
    const purchases: TransactionRecord[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.db.transactions.listByUser(wallet, { limit: pageSize, offset });
      purchases.push(...page);
      if (page.length < pageSize) break;
    }
    return auditWallet(wallet, entries, await this.db.ledger.balance(wallet), purchases);
  }
}
