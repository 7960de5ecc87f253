## Admin commands (ADMIN_IDS only)

admin-stats-title = 📊 <b>Statistics</b>
admin-stats-users = Users: { $users } (active { $active }, banned { $banned })
admin-stats-connected = Connected: { $reseller } reseller top-up · { $marketplace } marketplace · { $gameshop } game shop
admin-stats-period = <b>{ $period ->
        [today] Today
       *[week] 7 days
    }</b>: { $count } transactions · { $volume } successful
    ✅ { $success } successful · ❌ { $failed } failed · ⏳ { $pending } in process · ⚠️ { $unresolved } unresolved
admin-stats-queues = Re-check backlog: { $backlog } · queued notices: { $outbox }
admin-stats-broadcast-none = Broadcast in progress: none
admin-stats-broadcast = Broadcast in progress: { $sent } of { $total } sent
admin-stats-uptime = Up for: { $days } d { $hours } h { $minutes } min
admin-user-usage = Write the user's id or @username, for example: /user 123456789 or /user @budi
admin-user-not-found = No user { $query }. Only users who have written to the bot are known.
# $locale: the default language, for a user who never chose one.
admin-user-locale-default = { $locale } (default, not chosen)
# $locale: the language of their Telegram app, for a user who never chose one.
admin-user-locale-telegram = { $locale } (Telegram app, not chosen)
admin-user-profile =
    👤 <b>{ $name }</b> · id <code>{ $id }</code>
    Username: { $username }
    Language: { $locale }
    Joined: { $joined }
    Status: { $status ->
        [banned] ⛔ banned by an admin since { $since }
        [blocked] 🚫 blocked the bot
       *[active] ✅ active
    }
admin-user-services = <b>Connected services</b>
admin-user-service = • { $service }: { $label } · since { $since }
admin-user-none = • none
admin-user-recent = <b>Last transactions</b>
admin-user-transaction = • { $when } · { $product } → { $target } · { $price } · { $status }
admin-ban-usage = Write the user's id or @username, for example: /ban 123456789 or /unban @budi
admin-ban-done = ⛔ { $name } (id { $id }) is banned. They are told once (when they next write) and get no service any more; purchases still in process settle and are notified.
admin-ban-admin = An admin cannot be banned.
admin-ban-already = { $name } (id { $id }) has been banned since { $since }.
admin-unban-done = ✅ { $name } (id { $id }) is no longer banned.
admin-unban-not-banned = { $name } (id { $id }) is not banned.
ban-notice = ⛔ Your account has been banned by the admin of this bot. The bot no longer serves you; purchases in process will still be notified.
command-broadcast = Broadcast to every user (admin)
command-broadcast_cancel = Stop the broadcast in progress (admin)
command-stats = Users, transactions, queues, uptime
command-user = A user's profile: /user ID or @username
command-ban = Ban a user: /ban ID or @username
command-unban = Lift a ban: /unban ID or @username
command-audit = Audit the downlines' wallets: balances, ledger, purchases (admin)
admin-audit-none = There are no downline wallets yet.
admin-audit-clean = ✅ <b>Wallet audit</b>: { $wallets } wallets, { $entries } entries, everything adds up. The wallets hold { $balance }; { $held } more is held for open purchases.
admin-audit-findings = ⚠️ <b>Wallet audit</b>: { $wallets } wallets, { $entries } entries, { $count } findings. The wallets hold { $balance }, { $held } held. Findings (wallet, ref ID):
admin-audit-more = … and { $count } more findings.
