## Admin commands (ADMIN_IDS only)

admin-stats = Pengguna: { $users } (aktif { $active }) · transaksi terbuka: { $open } · notifikasi dalam antrean: { $queued }
