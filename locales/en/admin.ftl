## Admin commands (ADMIN_IDS only)

admin-broadcast-usage = Write the message after the command, for example: /broadcast The provider's server is under maintenance at 23.00 WIB.
admin-broadcast-confirm =
    Send this message to { $count } active users?

    { $text }
admin-broadcast-send = 📣 Send
admin-broadcast-cancelled = Broadcast cancelled.
admin-broadcast-queued = Broadcast queued for { $count } users; it goes out gradually within Telegram's limits.
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
