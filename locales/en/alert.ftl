## Low-balance alert

command-alert = Low-balance alert: /alert 50000
alert-none = No balance alert is set. Example: /alert 50000 — I will tell you as soon as the balance drops below Rp 50.000.
alert-current = I will tell you as soon as your balance drops below { $amount }. /alert off to turn it off.
alert-set = Okay! I will tell you as soon as your deposit balance drops below { $amount }.
alert-removed = Balance alert turned off.
alert-invalid = Write the threshold as a whole rupiah amount, for example /alert 50000 or /alert 50.000, or /alert off to turn it off.
alert-downline = The balance alert watches a provider account's deposit balance, and that is your upline's provider account deposit (your upline is the one alerted). Your wallet balance is in /saldo; top it up with /deposit.
alert-low-balance = ⚠️ Your deposit balance is down to { $balance }, below your threshold of { $threshold }. Top up so purchases do not fail.

alert-downline-refused = ⚠️ The provider refused a purchase of your downline: { $reason } The downline was told only that the product is unavailable for now, and was refunded. (At most one such alert an hour.)
alert-downline-refused-insufficient_balance = your provider account's deposit balance is too low. Top it up so your downlines can buy.
alert-downline-refused-credentials = your provider account's API ID or API key was refused. Reconnect with /connect.
alert-downline-refused-ip_blocked = the provider blocks the bot server's IP. Whitelist the server's IP with the provider.
