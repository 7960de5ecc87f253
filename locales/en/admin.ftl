## Admin commands (ADMIN_IDS only)

admin-broadcast-usage = Write the message after the command, for example: /broadcast The provider's server is under maintenance at 23.00 WIB.
admin-broadcast-confirm =
    Send this message to { $count } active users?

    { $text }
admin-broadcast-send = 📣 Send
admin-broadcast-cancelled = Broadcast cancelled.
admin-broadcast-queued = Broadcast queued for { $count } users; it goes out gradually within Telegram's limits.
admin-stats = Users: { $users } (active { $active }) · open purchases: { $open } · queued notices: { $queued }
