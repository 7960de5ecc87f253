## Admin commands (ADMIN_IDS only)

admin-broadcast-usage = Tulis pesannya setelah perintah, misalnya: /broadcast Server provider sedang perawatan pukul 23.00 WIB.
admin-broadcast-confirm =
    Kirim pesan ini ke { $count } pengguna aktif?

    { $text }
admin-broadcast-send = 📣 Kirim
admin-broadcast-cancelled = Siaran dibatalkan.
admin-broadcast-queued = Siaran masuk antrean untuk { $count } pengguna; terkirim bertahap sesuai batas Telegram.
admin-stats = Pengguna: { $users } (aktif { $active }) · transaksi terbuka: { $open } · notifikasi dalam antrean: { $queued }
