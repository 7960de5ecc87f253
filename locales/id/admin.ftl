## Admin commands (ADMIN_IDS only)

admin-broadcast-usage = Tulis pesannya setelah perintah, misalnya: /broadcast Server provider sedang perawatan pukul 23.00 WIB.
admin-broadcast-confirm =
    Kirim pesan ini ke { $count } pengguna aktif?

    { $text }
admin-broadcast-send = 📣 Kirim
admin-broadcast-cancelled = Siaran dibatalkan.
admin-broadcast-queued = Siaran masuk antrean untuk { $count } pengguna; terkirim bertahap sesuai batas Telegram.
admin-stats-title = 📊 <b>Statistik</b>
admin-stats-users = Pengguna: { $users } (aktif { $active }, diblokir admin { $banned })
admin-stats-connected = Terhubung: { $reseller } top-up reseller · { $marketplace } marketplace · { $gameshop } toko game
admin-stats-period = <b>{ $period ->
        [today] Hari ini
       *[week] 7 hari
    }</b>: { $count } transaksi · { $volume } sukses
    ✅ { $success } sukses · ❌ { $failed } gagal · ⏳ { $pending } diproses · ⚠️ { $unresolved } tak terselesaikan
admin-stats-queues = Antrean pengecekan: { $backlog } · notifikasi dalam antrean: { $outbox }
admin-stats-broadcast-none = Siaran berjalan: tidak ada
admin-stats-broadcast = Siaran berjalan: { $sent } dari { $total } terkirim
admin-stats-uptime = Aktif sejak: { $days } hari { $hours } jam { $minutes } menit
