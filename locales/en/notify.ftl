## Notices sent by the bot on its own

notify-settled-success = ✅ <b>Transaction succeeded</b> — { $product } { $target }
notify-settled-failed = ❌ <b>Transaction failed</b> — { $product } { $target }. The provider refunded the balance.
notify-settled-rejected = ⛔ <b>Transaction refused by the provider</b> — { $product } { $target }
notify-settled-unresolved = ⚠️ <b>Status still unknown</b> — { $product } { $target }. The provider gave no final answer for too long; contact the provider with the ref ID below. This transaction is no longer checked.
notify-settled-restored = ⚠️ <b>Status unknown</b> — { $product } { $target }. The bot was restored from a backup made before this purchase was sent to the provider, so it cannot tell whether it went through. It was not sent again; ask the provider about it with the ref ID below.
notify-settled-failed-wallet = ❌ <b>Transaction failed</b> — { $product } { $target }. Your wallet has been refunded.
notify-settled-rejected-wallet = ⛔ <b>Transaction not processed</b> — { $product } { $target }. Your wallet has been refunded.
notify-settled-unresolved-wallet = ⚠️ <b>Status still unknown</b> — { $product } { $target }. The provider gave no final answer for too long. The amount stays held until it is clear; contact your upline with the ref ID below.
notify-settled-restored-wallet = ⚠️ <b>Status unknown</b> — { $product } { $target }. The bot was restored from a backup, so it cannot tell whether this purchase went through. The amount stays held until it is clear; contact your upline with the ref ID below.
notify-downline-held = ⚠️ A purchase of your downline { $name } has no final status: { $product } { $target }, ref ID <code>{ $refId }</code>. { $price } stays held in their wallet. Ask the provider, then decide: /resolve { $refId } success (the provider charged you) or /resolve { $refId } failed (give it back to the downline's wallet).
notify-held-spent = 🧾 Your upline confirmed the purchase { $product } { $target } (ref ID <code>{ $refId }</code>) went through at the provider: { $price } is spent. Your wallet holds { $balance }.
notify-held-refunded = ↩️ Your upline gave back { $price } of the purchase { $product } { $target } (ref ID <code>{ $refId }</code>), which did not go through. Your wallet now holds { $balance }.
notify-paused-credentials = ⚠️ The provider refused your credentials while checking a Pending transaction. Checks are paused; reconnect with /connect and I will continue.
notify-paused-ip = ⚠️ The provider blocks the bot server's IP while checking a Pending transaction. Whitelist the server IP, then reconnect with /connect; I will continue after that.
notify-paused-disconnected = ⚠️ A transaction is Pending but your top-up account is not connected. Connect it again with /connect so I can check it.

operator-new-user = 👤 New user: { $name } (id { $userId })
operator-transaction-failed = ❌ Transaction failed: { $refId } ({ $code }) of user { $userId }
operator-transaction-unresolved = ⚠️ Transaction unresolved: { $refId } ({ $code }) of user { $userId }
operator-transaction-review = 🔎 Needs review: transaction { $refId } (trx { $trxId }, { $code }) of user { $userId } was acknowledged by the provider, but { $count } checks in a row were refused: { $reason }. It stays open and keeps being checked; the user was not told "not charged". Check at the provider whether the balance was debited.
operator-account-problem = 🔑 { $service } refused the account of user { $userId }: { $reason ->
        [ip_blocked] the server's IP is blocked; ask the provider to whitelist { $ip }.
       *[credentials] credentials refused; the user needs to /connect again.
    }
operator-bot-error = 🐞 Bot error: { $summary }
operator-burst = 🔁 Again ×{ $count } in the last { $minutes } minutes

## Notify: a downline's settled purchase posted to the upline's linked group (masked, no amounts)

notify-downline-purchase = 👥 Downline { $name }: { $icon } { $status } — { $product } { $target }
