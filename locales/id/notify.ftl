## Notices sent by the bot on its own

notify-settled-success = ✅ <b>Transaksi sukses</b> — { $product } { $target }
notify-settled-failed = ❌ <b>Transaksi gagal</b> — { $product } { $target }. Saldo dikembalikan oleh provider.
notify-settled-rejected = ⛔ <b>Transaksi ditolak provider</b> — { $product } { $target }
notify-settled-unresolved = ⚠️ <b>Status belum pasti</b> — { $product } { $target }. Provider terlalu lama tidak memberi kepastian; hubungi provider dengan ref ID di bawah. Transaksi ini tidak dicek lagi.
notify-settled-restored = ⚠️ <b>Status belum pasti</b> — { $product } { $target }. Bot dipulihkan dari cadangan yang dibuat sebelum pembelian ini dikirim ke provider, jadi bot tidak tahu apakah pembelian ini jadi. Bot tidak mengirimnya lagi; tanyakan ke provider dengan ref ID di bawah.
notify-settled-failed-wallet = ❌ <b>Transaksi gagal</b> — { $product } { $target }. Saldo dompet Anda sudah dikembalikan.
notify-settled-rejected-wallet = ⛔ <b>Transaksi tidak diproses</b> — { $product } { $target }. Saldo dompet Anda sudah dikembalikan.
notify-settled-unresolved-wallet = ⚠️ <b>Status belum pasti</b> — { $product } { $target }. Provider terlalu lama tidak memberi kepastian. Saldonya tetap ditahan sampai jelas; hubungi upline Anda dengan ref ID di bawah.
notify-settled-restored-wallet = ⚠️ <b>Status belum pasti</b> — { $product } { $target }. Bot dipulihkan dari cadangan, jadi tidak tahu apakah pembelian ini jadi. Saldonya tetap ditahan sampai jelas; hubungi upline Anda dengan ref ID di bawah.
notify-downline-held = ⚠️ Pembelian downline { $name } statusnya belum pasti: { $product } { $target }, ref ID <code>{ $refId }</code>. { $price } tetap ditahan dari dompetnya. Tanyakan ke provider, lalu putuskan: /selesaikan { $refId } sukses (provider memotong saldo Anda) atau /selesaikan { $refId } gagal (kembalikan ke dompet downline).
notify-held-spent = 🧾 Upline Anda memastikan pembelian { $product } { $target } (ref ID <code>{ $refId }</code>) sudah diproses provider: { $price } terpakai. Saldo dompet Anda { $balance }.
notify-held-refunded = ↩️ Upline Anda mengembalikan { $price } dari pembelian { $product } { $target } (ref ID <code>{ $refId }</code>) yang tidak jadi. Saldo dompet Anda sekarang { $balance }.
notify-paused-credentials = ⚠️ Provider menolak kredensial Anda saat mengecek transaksi Pending. Pengecekan dihentikan sementara; hubungkan ulang dengan /connect dan saya lanjutkan.
notify-paused-ip = ⚠️ Provider memblokir IP server bot saat mengecek transaksi Pending. Masukkan IP server ke whitelist lalu hubungkan ulang dengan /connect; saya lanjutkan setelahnya.
notify-paused-disconnected = ⚠️ Ada transaksi Pending, tetapi akun top-up Anda tidak terhubung. Hubungkan lagi dengan /connect supaya saya bisa mengeceknya.

operator-new-user = 👤 Pengguna baru: { $name } (id { $userId })
operator-transaction-failed = ❌ Transaksi gagal: { $refId } ({ $code }) milik pengguna { $userId }
operator-transaction-unresolved = ⚠️ Transaksi tak terselesaikan: { $refId } ({ $code }) milik pengguna { $userId }
operator-transaction-review = 🔎 Perlu diperiksa: transaksi { $refId } (trx { $trxId }, { $code }) milik pengguna { $userId } sudah diterima provider, tetapi { $count } pengecekan berturut-turut ditolak: { $reason }. Transaksi tetap terbuka dan terus dicek; pengguna tidak diberi tahu "tidak terpotong". Periksa di sisi provider apakah saldo terpotong.
operator-account-problem = 🔑 { $service } menolak akun pengguna { $userId }: { $reason ->
        [ip_blocked] IP server diblokir; minta provider mem-whitelist IP { $ip }.
       *[credentials] kredensial ditolak; pengguna perlu /connect ulang.
    }
operator-bot-error = 🐞 Kesalahan bot: { $summary }
operator-burst = 🔁 Terjadi lagi ×{ $count } dalam { $minutes } menit terakhir

## Notify: a downline's settled purchase posted to the upline's linked group (masked, no amounts)

notify-downline-purchase = 👥 Downline { $name }: { $icon } { $status } — { $product } { $target }
