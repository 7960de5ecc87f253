## Report: /report, the figures of a period (no sell prices yet: amounts are the cost)

command-report = Transaction report for a period
report-menu =
    📊 <b>Transaction report</b>
    Choose a period (days in WIB, weeks from Monday). The report covers your own transactions.

    Another range: <code>/report 2026-11-01 2026-11-15</code>
report-title = 📊 <b>Report, { $from } to { $to } (WIB)</b>
report-total = Transactions: { $count }
report-success = ✅ Success: { $count }
report-failed = ❌ Failed: { $count }
report-pending = ⏳ In process: { $count }
report-unresolved = ❔ Unresolved: { $count }
report-rejected = ⛔ Rejected: { $count }
report-turnover = 💰 Turnover (cost price): { $amount }
report-rate = 📈 Success rate: { $rate }%
report-rate-none = 📈 Success rate: - (nothing succeeded or failed yet)
report-top-title = <b>Top { $count } products</b> (successful)
report-top-line = { $n }. <code>{ $code }</code> { $name } · { $count }× · { $sum }
report-brands-title = <b>Per brand</b> (successful)
report-brand-line = { $brand }: { $count }× · { $sum }
report-cost-note = <i>Amounts are the provider's cost prices; sell prices are not available yet.</i>
report-empty = No transactions from { $from } to { $to } (WIB), so there is nothing to report.
report-bad-date =
    That date was not understood. Write the range like this:
    <code>/report 2026-11-01 2026-11-15</code>
    <code>/report 01/11/2026 15/11/2026</code>
report-bad-order = The first date must be before (or the same as) the last one, for example <code>/report 2026-11-01 2026-11-15</code>.
