## Low-balance alert

command-alert = Peringatan saldo menipis: /alert 50000
alert-none = Peringatan saldo belum diatur. Contoh: /alert 50000 — saya kabari begitu saldo di bawah Rp 50.000.
alert-current = Saya akan mengabari Anda begitu saldo di bawah { $amount }. /alert off untuk mematikan.
alert-set = Oke! Saya kabari begitu saldo deposit di bawah { $amount }.
alert-removed = Peringatan saldo dimatikan.
alert-invalid = Tulis batasnya dalam rupiah bulat, misalnya /alert 50000 atau /alert 50.000, atau /alert off untuk mematikan.
alert-downline = Peringatan saldo mengawasi saldo deposit akun provider, dan itu saldo deposit akun provider upline Anda (upline Anda yang dikabari). Saldo dompet Anda ada di /saldo; isi dengan /deposit.
alert-low-balance = ⚠️ Saldo deposit Anda tinggal { $balance }, di bawah batas { $threshold }. Isi deposit supaya transaksi tidak gagal.

alert-downline-refused = ⚠️ Provider menolak pembelian downline Anda: { $reason } Downline hanya diberi tahu produk sedang tidak tersedia, dan saldonya dikembalikan. (Pemberitahuan ini paling banyak sekali sejam.)
alert-downline-refused-insufficient_balance = saldo deposit akun provider Anda tidak cukup. Isi deposit supaya downline bisa membeli.
alert-downline-refused-credentials = API ID atau API key akun provider Anda ditolak. Hubungkan ulang dengan /connect.
alert-downline-refused-ip_blocked = provider memblokir IP server bot. Daftarkan IP server di provider.
