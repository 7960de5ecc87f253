## Export: /export, the user's transactions of a period as a CSV file

command-export = Export transactions to CSV (Excel)
export-menu =
    📤 <b>Export transactions</b>
    Choose a period (days in WIB, weeks from Monday). The CSV file holds your own transactions.
    Excel with Indonesian settings? Tap «Excel Indonesia (;)» first.

    Another range: <code>/export 2026-11-01 2026-11-15</code>
export-button-semicolon = Excel Indonesia (;)
export-caption = 📤 { $count ->
        [one] { $count } transaction
       *[other] { $count } transactions
    }, { $from } to { $to } (WIB).
export-empty = No transactions from { $from } to { $to } (WIB). No file was sent.
export-bad-date =
    That date was not understood. Write the range like this:
    <code>/export 2026-11-01 2026-11-15</code>
    <code>/export 01/11/2026 15/11/2026</code>
    Add <code>;</code> at the end for Indonesian Excel.
export-bad-order = The first date must be before (or the same as) the last one, for example <code>/export 2026-11-01 2026-11-15</code>.

export-column-time = Time (WIB)
export-column-ref = Ref ID
export-column-trx = Trx ID
export-column-code = Product code
export-column-product = Product name
export-column-target = Target
export-column-price = Cost
export-column-sell = Sell price
export-column-margin = Margin (Success)
export-column-status = Status
export-column-sn = SN

## Export: /ekspor dl, the upline's CSV of their downlines' purchases

export-dl-menu-all =
    📤 <b>Export downline purchases</b>
    Pick a period (days in WIB, weeks from Monday). The CSV file holds the purchases of all your downlines: the downline's price, your cost and your margin.
    Excel with Indonesian settings? Tap «Excel Indonesia (;)» first.

    One downline: <code>/export dl @user</code> · another range: <code>/export dl 2026-11-01 2026-11-15</code>
export-dl-menu-one =
    📤 <b>Export the purchases of { $name }</b>
    Pick a period (days in WIB, weeks from Monday).
    Excel with Indonesian settings? Tap «Excel Indonesia (;)» first.
export-dl-caption = 📤 { $count } downline purchases, { $from } to { $to } (WIB).
export-dl-empty = No downline purchases on { $from } to { $to } (WIB). No file sent.
export-dl-bad-date =
    Date not recognised. Write a date range like this:
    <code>/export dl 2026-11-01 2026-11-15</code>
    <code>/export dl @user 01/11/2026 15/11/2026 ;</code>
export-column-downline = Downline
export-column-downline-id = Downline ID
export-column-dl-price = Downline price
export-column-dl-cost = Your cost
export-column-dl-margin = Your margin (Success)
