## Admin commands (ADMIN_IDS only)

admin-stats = Users: { $users } (active { $active }) · open purchases: { $open } · queued notices: { $queued }
