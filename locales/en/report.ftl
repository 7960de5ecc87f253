## Report: /report, the figures of a period (turnover at the sell prices stored at confirmation)

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
report-sell-turnover = 💰 Turnover (sell price): { $amount }
report-turnover = 🏷 Turnover (cost price): { $amount }
report-margin = 💵 Margin: { $amount }
report-line-margin = {" "}· margin { $margin }
report-rate = 📈 Success rate: { $rate }%
report-rate-none = 📈 Success rate: - (nothing succeeded or failed yet)
report-top-title = <b>Top { $count } products</b> (successful)
report-top-line = { $n }. <code>{ $code }</code> { $name } · { $count }× · { $sum }
report-brands-title = <b>Per brand</b> (successful)
report-brand-line = { $brand }: { $count }× · { $sum }
report-cost-note = <i>Turnover is at the sell price stored when each transaction was confirmed (one without a sell price counts at cost); per product and per brand: cost. Set sell prices with /sellprice.</i>
report-empty = No transactions from { $from } to { $to } (WIB), so there is nothing to report.
report-bad-date =
    That date was not understood. Write the range like this:
    <code>/report 2026-11-01 2026-11-15</code>
    <code>/report 01/11/2026 15/11/2026</code>
report-bad-order = The first date must be before (or the same as) the last one, for example <code>/report 2026-11-01 2026-11-15</code>.
