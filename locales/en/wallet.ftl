## Wallet: a downline's /saldo, /deposit, /mutasi; the upline's /carabayar, /saldodl and deposit requests

command-payinfo = Deposit payment instructions for your downlines
command-dlbalance = Add to or deduct from a downline's wallet: /dlbalance ID +50000 reason
command-deposit = Top up your wallet with your upline: /deposit 100000
command-statement = Your wallet statement

wallet-balance =
    💰 <b>Your deposit balance</b>: { $amount }
    Kept with your upline, { $name }. Read { $time }.
    Top up with /deposit; your statement with /statement.
wallet-not-downline = This command is for downlines: their deposit is kept with their upline. Join through your upline's invite link.
wallet-button-deposit = ➕ Deposit
wallet-button-statement = 📜 Statement
wallet-button-copy-amount = 📋 Copy amount

wallet-deposit-choose = Choose an amount to deposit, or type for example <code>/deposit 150000</code> (at least { $min }).
wallet-deposit-usage = That amount does not read. Type for example <code>/deposit 100000</code> or <code>/deposit 100k</code> (at least { $min }).
wallet-deposit-bad-amount = A deposit is between { $min } and { $max }.
wallet-deposit-ticket =
    🧾 <b>Deposit ticket</b>
    Transfer exactly <b>{ $total }</b> ({ $amount } + unique code { $code }) before { $until }.
    The exact amount identifies your transfer: do not round it.

    <b>How to pay { $name }:</b>
    { $payinfo }

    Your balance grows by { $total } once { $name } confirms your transfer. You will be told.
wallet-deposit-no-pay-info = { $name } has not set how to pay deposits yet. Ask them to set it with /payinfo, then try again.
wallet-deposit-too-many = You still have { $count } deposit tickets waiting for confirmation: { $list }. Wait for your upline to confirm or for a ticket to expire.
wallet-deposit-busy = Your upline has too many open deposit tickets right now. Try again later.
wallet-deposit-suspended = Your downline account is suspended: no deposit can be asked for. Contact your upline.
wallet-deposit-not-downline = You are nobody's downline any more.

wallet-payinfo-none =
    How to pay deposits is not set. Send for example:
    <code>/payinfo BCA 1234567890 a.n. Budi Santoso, or DANA 081234567890</code>
    Your downlines see this text with the unique amount of each deposit ticket.
wallet-payinfo-current =
    How to pay deposits now:
    { $text }

    Change it with <code>/payinfo new text</code>.
wallet-payinfo-saved =
    ✅ Payment instructions saved. Your downlines see them on every deposit ticket:
    { $text }
wallet-payinfo-not-open = Downline mode is not open. Send /downline to open it.
wallet-payinfo-too-long = Payment instructions are at most { $max } characters.

wallet-request =
    💰 <b>Deposit ticket</b> from { $name } (ID { $id }): <b>{ $total }</b> ({ $amount } + code { $code }), valid until { $until }.
    Accept once a transfer of exactly that amount reached your account.
wallet-button-accept = ✅ Accept
wallet-button-reject = ❌ Reject
wallet-request-accepted = 💰 Deposit { $total } from { $name }: ✅ accepted. The downline's balance is now { $balance }.
wallet-request-rejected = 💰 Deposit { $total } from { $name }: ❌ rejected.
wallet-request-expired = 💰 Deposit { $total } from { $name }: ⌛ expired, it can no longer be accepted. The downline can ask for a new ticket.
wallet-decision-accepted = ✅ Accepted: the downline's balance grew.
wallet-decision-rejected = ❌ Rejected.
wallet-decision-already-accepted = This ticket was accepted already (credited once only).
wallet-decision-already-rejected = This ticket was rejected already.
wallet-decision-already-expired = This ticket has expired.
wallet-decision-unknown = This deposit ticket is gone.

wallet-credited = ✅ Deposit { $total } accepted by { $name }. Your balance is now { $balance }.
wallet-rejected = ❌ { $name } rejected the deposit ticket of { $total }. If you transferred already, contact { $name }.
wallet-adjusted-add = ➕ { $name } added { $amount } to your balance ({ $reason }). Your balance is now { $balance }.
wallet-adjusted-deduct = ➖ { $name } deducted { $amount } from your balance ({ $reason }). Your balance is now { $balance }.

wallet-adjust-usage =
    Add to or deduct from a downline's balance, with a reason:
    <code>/dlbalance 123456789 +50000 this month's bonus</code>
    <code>/dlbalance @name -20000 transfer correction</code>
    (your downline's ID or @username, + or −, at most { $max })
wallet-adjust-reason-long = A reason is at most { $max } characters.
wallet-adjust-not-yours = { $who } is not your downline. See the list with /downline.
wallet-adjust-short = ❌ Not deducted: { $name }'s balance is only { $balance }, less than { $amount }. A balance never goes below zero.
wallet-adjust-added = ✅ Added { $amount } to { $name }'s balance ({ $reason }). Balance now { $balance }. The downline was told.
wallet-adjust-deducted = ✅ Deducted { $amount } from { $name }'s balance ({ $reason }). Balance now { $balance }. The downline was told.

wallet-statement-title = 📜 <b>Statement</b> (page { $page }, newest first)
wallet-statement-line = { $time } · { $what }{ $amount } · balance { $balance }{ $note }
wallet-statement-empty = No movements yet. Top up with /deposit.
wallet-statement-no-more = No older movements.
wallet-kind-deposit = Deposit
wallet-kind-hold = Purchase
wallet-kind-final = Purchase succeeded
wallet-kind-refund = Refund
wallet-kind-adjust = Upline correction

wallet-former =
    💰 <b>Your wallet</b>: { $amount } (read { $time })
wallet-former-note = This money is kept by your former upline, { $name }: you are no longer their downline. Contact { $name } to have it paid out.
wallet-former-held = { $count } purchases are still in process: if they fail, the money comes back to this wallet.
wallet-adjust-former = { $name } is no longer your downline: their wallet of { $balance } can only be deducted from, to pay it back, for example <code>/dlbalance { $id } -{ $plain } paid in cash</code>.
wallet-decision-gone = This user is no longer your downline, so this ticket cannot be accepted. If they transferred, pay it back to them directly; close the ticket with ❌ Reject.
wallet-decision-held-elsewhere = This downline's wallet is still kept by their former upline, so this ticket cannot be accepted yet. Ask that upline to pay it out first, or close the ticket with ❌ Reject.
wallet-adjust-held-elsewhere = ❌ Nothing changed: { $name }'s wallet is still kept by their former upline, who must pay it out first.

## Held purchases (an upline decides a downline's purchase with no final status)
command-resolve = Settle a downline's purchase left unresolved: /resolve REF_ID success|failed
held-usage = Write <code>/resolve REF_ID success</code> (the provider charged you: the price is spent) or <code>/resolve REF_ID failed</code> (give it back to the downline's wallet). The ref ID is in the notice about the purchase with no final status.
held-unknown = Ref ID <code>{ $refId }</code> is not a purchase of one of your downlines paid from a wallet.
held-open = Purchase <code>{ $refId }</code> is still being checked with the provider; its result will settle it.
held-closed-final = Purchase <code>{ $refId }</code> is settled already: its price is spent. Nothing changed.
held-closed-refund = Purchase <code>{ $refId }</code> is settled already: its price went back to the downline's wallet. Nothing changed.
held-spent = ✅ Noted: purchase <code>{ $refId }</code> went through at the provider; { $price } of { $name }'s wallet is spent. { $name } holds { $balance }.
held-refunded = ✅ { $price } went back to { $name }'s wallet (purchase <code>{ $refId }</code>). { $name } now holds { $balance }.

## Wallet statement in /ekspor

wallet-export-caption = 📜 Wallet statement: { $count ->
        [one] { $count } entry
       *[other] { $count } entries
    }, { $from } to { $to } (WIB). Opening balance { $opening }, in { $credited }, out { $debited }, closing balance { $closing }.
wallet-export-column-time = Time (WIB)
wallet-export-column-kind = Kind
wallet-export-column-amount = Amount
wallet-export-column-balance = Balance after
wallet-export-column-ref = Ref ID
wallet-export-column-note = Note
