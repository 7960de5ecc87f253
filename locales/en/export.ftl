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
