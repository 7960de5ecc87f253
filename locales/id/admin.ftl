## Admin commands (ADMIN_IDS only)

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
admin-user-usage = Tulis id atau @username pengguna, misalnya: /user 123456789 atau /user @budi
admin-user-not-found = Pengguna { $query } tidak ditemukan. Hanya pengguna yang pernah menulis ke bot yang dikenal.
# $locale: the default language, for a user who never chose one.
admin-user-locale-default = { $locale } (bawaan, belum dipilih)
# $locale: the language of their Telegram app, for a user who never chose one.
admin-user-locale-telegram = { $locale } (aplikasi Telegram, belum dipilih)
admin-user-profile =
    👤 <b>{ $name }</b> · id <code>{ $id }</code>
    Username: { $username }
    Bahasa: { $locale }
    Bergabung: { $joined }
    Status: { $status ->
        [banned] ⛔ diblokir admin sejak { $since }
        [blocked] 🚫 memblokir bot
       *[active] ✅ aktif
    }
admin-user-services = <b>Layanan terhubung</b>
admin-user-service = • { $service }: { $label } · sejak { $since }
admin-user-none = • tidak ada
admin-user-recent = <b>Transaksi terakhir</b>
admin-user-transaction = • { $when } · { $product } → { $target } · { $price } · { $status }
admin-ban-usage = Tulis id atau @username pengguna, misalnya: /ban 123456789 atau /unban @budi
admin-ban-done = ⛔ { $name } (id { $id }) diblokir. Dia diberi tahu sekali (saat menulis ke bot) dan tidak dilayani lagi; pembelian yang masih diproses tetap diselesaikan dan diberitahukan.
admin-ban-admin = Admin tidak bisa diblokir.
admin-ban-already = { $name } (id { $id }) sudah diblokir sejak { $since }.
admin-unban-done = ✅ Blokir { $name } (id { $id }) dicabut.
admin-unban-not-banned = { $name } (id { $id }) tidak sedang diblokir.
ban-notice = ⛔ Akun Anda diblokir oleh admin bot ini. Bot tidak melayani Anda lagi; pembelian yang sedang diproses tetap diberitahukan hasilnya.
command-broadcast = Siaran ke semua pengguna (admin)
command-broadcast_cancel = Hentikan siaran yang berjalan (admin)
command-stats = Pengguna, transaksi, antrean, waktu aktif
command-user = Profil pengguna: /user ID atau @username
command-ban = Blokir pengguna: /ban ID atau @username
command-unban = Cabut blokir: /unban ID atau @username
command-audit = Audit dompet downline: saldo, buku besar, pembelian (admin)
admin-audit-none = Belum ada dompet downline.
admin-audit-clean = ✅ <b>Audit dompet</b>: { $wallets } dompet, { $entries } catatan, semuanya cocok. Isi dompet { $balance }, ditahan untuk pembelian yang belum selesai { $held }.
admin-audit-findings = ⚠️ <b>Audit dompet</b>: { $wallets } dompet, { $entries } catatan, { $count } temuan. Isi dompet { $balance }, ditahan { $held }. Temuan (dompet, ref ID):
admin-audit-more = … dan { $count } temuan lagi.
