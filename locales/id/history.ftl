## History: /riwayat, the user's transactions

history-title = 🧾 <b>Riwayat transaksi</b> — halaman { $page }
history-empty = Belum ada transaksi. Lihat produk dengan /harga, atau kirim KODE.TUJUAN (misalnya TSEL10.081234567890) untuk beli cepat.
history-line = { $n }. { $icon } <b>{ $product }</b> → <code>{ $target }</code>
    { $price } · { $status } · { $time }
history-footer = Ketuk nomor transaksi untuk melihat struknya.
history-not-found = Transaksi ini tidak ditemukan di akun Anda.

history-button-item = { $n }. { $code } → { $target }
history-button-back = « Kembali ke riwayat
