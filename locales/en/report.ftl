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

## Report: an upline's margin from downlines, and /laporan dl (the upline's report of their downlines' purchases)

report-downline-margin = 👥 Margin from downlines: { $amount }
report-dl-menu-all =
    📊 <b>Downline report</b>
    Pick a period (days in WIB, weeks from Monday). The report covers the purchases of all your downlines: sales at the downlines' prices, your cost and your margin.

    One downline: <code>/report dl @user</code> · another range: <code>/report dl 2026-11-01 2026-11-15</code>
report-dl-menu-one =
    📊 <b>Downline report of { $name }</b>
    Pick a period (days in WIB, weeks from Monday).
report-dl-title-all = 📊 <b>Downline report ({ $count }) { $from } to { $to } (WIB)</b>
report-dl-title-one = 📊 <b>Downline report of { $name }, { $from } to { $to } (WIB)</b>
report-dl-other = ⏳ In process/other: { $count }
report-dl-sales = 💰 Sales (downline prices): { $amount }
report-dl-cost = 🏷 Your cost: { $amount }
report-dl-margin = 💵 Your margin: { $amount }
report-dl-rows-title = <b>Per downline</b> (Success)
report-dl-row = { $n }. { $name }: { $count }× · sold { $sales } · cost { $cost } · margin { $margin }
report-dl-note = <i>Sales, cost and margin of Success transactions, at the price and cost stored when the downline confirmed.</i>
report-dl-empty = No downline purchases on { $from } to { $to } (WIB).
report-dl-bad-date =
    Date not recognised. Write a date range like this:
    <code>/report dl 2026-11-01 2026-11-15</code>
    <code>/report dl @user 01/11/2026 15/11/2026</code>
report-dl-former = { $name } (removed)
