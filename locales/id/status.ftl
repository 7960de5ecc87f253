## Status: /cek, one transaction re-checked with the provider

status-not-found = Transaksi <code>{ $query }</code> tidak ditemukan di akun Anda. Ketik Ref ID atau Trx ID (ada di struk), atau nomor tujuan; atau lihat /riwayat.
status-not-found-short = Transaksi ini tidak ditemukan di akun Anda.
status-pending-none = Tidak ada transaksi yang masih Pending. Semua transaksi Anda ada di /riwayat; cek satu transaksi dengan /cek REF_ID.
status-pending-title = ⏳ <b>Transaksi yang masih diproses</b> ({ $count }). Ketuk salah satu untuk mengecek statusnya ke provider:
status-pending-line = { $n }. <b>{ $product }</b> → <code>{ $target }</code> · { $status } · { $time }
status-pending-more = …dan { $count } lainnya. Cek satu per satu dengan /cek REF_ID.

status-matches-title = 🔎 <b>{ $count } transaksi ke nomor ini</b>, terbaru dulu. Ketuk salah satu untuk melihat struknya:
status-matches-more = …dan yang lebih lama ada di /riwayat.
status-button-item = { $n }. { $code } → { $target }
status-button-again = 🔄 Cek lagi
status-button-list = « Daftar Pending

status-recheck-refused = Provider menjawab tidak biasa saat transaksi ini dicek ulang. Transaksi ini belum final dan tetap dicek otomatis; saya kabari begitu selesai. Jangan beli ulang.
status-recheck-review = Provider berkali-kali menjawab tidak biasa saat transaksi ini dicek ulang. Transaksi ini belum final dan tetap dicek otomatis, dan operator sudah diberi tahu untuk memeriksanya. Jangan beli ulang.
