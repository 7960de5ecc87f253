## Buy: /beli, quick-buy KODE.TUJUAN, summary, confirmation, PIN and results

buy-unknown-code = Kode <code>{ $code }</code> tidak ada di daftar harga Anda. Kirim kode lain, atau lihat /harga.
buy-unavailable-code = { $product } (<code>{ $code }</code>) sedang tidak tersedia: { $status }. Kirim kode lain, atau lihat /harga.
buy-code-format = Itu bukan kode produk. Kirim kodenya saja (misalnya <code>TSEL10</code>), atau KODE.TUJUAN.
buy-ask-target-phone = { $product } (<code>{ $code }</code>) — { $price }
    Kirim nomor HP tujuan (misalnya 081234567890).
buy-ask-target-verbatim = { $product } (<code>{ $code }</code>) — { $price }
    Kirim ID tujuan persis seperti yang harus dikirim (ID game, nomor meter/ID pelanggan PLN, ...).
buy-ask-target-auto = { $product } (<code>{ $code }</code>) — { $price }
    Kirim tujuannya (nomor HP, ID game, atau nomor meter).
buy-target-retry = { $problem }. Kirim lagi tujuannya, atau /batal untuk berhenti.

buy-problem-format = "{ $text }" bukan format KODE.TUJUAN
buy-problem-unknown = kode <code>{ $code }</code> tidak ada di daftar harga (cek /harga)
buy-problem-unavailable = { $product } (<code>{ $code }</code>) sedang tidak tersedia: { $status }
buy-problem-target-phone = "{ $target }" bukan nomor HP yang valid (harus diawali 08, +62 atau 62, dan 10–13 angka)
buy-problem-target-empty = tujuan masih kosong
buy-problem-target-too-long = tujuan terlalu panjang (maksimal { $max } karakter)
buy-problem-target-characters = tujuan berisi karakter yang tidak boleh
buy-problem-line = Baris { $line }: { $problem }

buy-too-many-lines = Maksimal { $max } baris per pesan, Anda mengirim { $count }. Tidak ada yang dibeli; kirim dalam beberapa pesan.
buy-nothing-to-buy = Tidak ada yang bisa dibeli:
buy-nothing-to-buy-hint-spaced = Formatnya <code>/beli KODE TUJUAN</code> (misalnya <code>/beli TSEL10 081234567890</code>). Daftar kode ada di /harga.
buy-nothing-to-buy-hint = Formatnya KODE.TUJUAN, satu per baris (misalnya <code>TSEL10.081234567890</code>). Daftar kode ada di /harga.

buy-summary-title = 🛒 <b>Ringkasan pembelian</b>
buy-summary-title-bulk = 🛒 <b>Ringkasan pembelian</b> ({ $count } transaksi)
buy-summary-product = Produk: { $product } (<code>{ $code }</code>)
buy-summary-target = Tujuan: <code>{ $target }</code>
buy-summary-price = Harga: <b>{ $price }</b>
buy-summary-operator-warning = ⚠️ { $prefix } adalah nomor { $numberOperator }, produk ini { $productOperator }.
buy-summary-price-sell = Modal → jual: { $figures }
buy-summary-line = { $n }. { $product } (<code>{ $code }</code>) → <code>{ $target }</code> — { $price }
buy-summary-total = Total: <b>{ $total }</b>
buy-summary-sell-total = Total jual: <b>{ $sell }</b> (margin { $margin })
buy-summary-balance = Saldo Anda: { $balance }
buy-summary-balance-unknown = Saldo Anda: tidak bisa dicek saat ini
buy-summary-balance-short = ⚠️ Saldo Anda kurang dari total; provider akan menolak yang tidak tertutup saldo.
buy-summary-wallet = Saldo dompet Anda: { $balance }
buy-summary-wallet-short = ⚠️ Saldo dompet kurang { $short } dari total: pembelian ini akan ditolak. Deposit dulu dengan /deposit.
buy-summary-skipped = ⚠️ Tidak ikut dibeli:
buy-summary-question = Lanjutkan?
buy-summary-checking = ⏳ Sedang diperiksa — belum dibeli.
buy-summary-not-bought = ❌ Tidak dibeli.
buy-summary-confirmed = ✅ Dikonfirmasi.
buy-summary-cancelled = ❌ Dibatalkan.
buy-summary-abandoned = (Ringkasan ini tidak berlaku lagi.)
buy-summary-price-changed = 🔄 Harga berubah — tidak dibeli. Lihat ringkasan baru di bawah.
buy-price-changed-title = 🔄 <b>Harga berubah</b> sejak ringkasan tadi. Periksa lagi, lalu konfirmasi:
buy-price-changed-line = • { $product } (<code>{ $code }</code>): { $old } → <b>{ $new }</b>

buy-button-confirm = ✅ Konfirmasi
buy-button-cancel = ❌ Batal
buy-button-again = ✅ Ya, beli lagi

buy-use-buttons = Tekan ✅ Konfirmasi atau ❌ Batal di bawah ringkasan, atau ketik /batal.
buy-answer-question = Jawab dulu pertanyaan di atas (Ya, beli lagi / Batal), atau ketik /batal.
buy-cancelled = Pembelian dibatalkan. Tidak ada yang dibeli.
buy-expired = Ringkasan ini sudah tidak berlaku. Kirim /beli untuk mulai lagi.
buy-already-done = Pembelian ini sudah dikonfirmasi sekali dan tidak dibeli lagi. Lihat hasilnya di /riwayat.
buy-in-progress = Sedang diproses…

buy-repeat-title = ⚠️ <b>Pembelian yang sama baru saja dilakukan</b>
buy-repeat-recent = • { $product } → <code>{ $target }</code>, { $seconds } detik lalu
buy-repeat-batch = • { $product } → <code>{ $target }</code>, lebih dari sekali di pesan ini
buy-repeat-question = Yakin mau beli lagi?

buy-pin-ask = 🔐 Kirim PIN transaksi Anda. Pesan berisi PIN langsung saya hapus.
buy-pin-format = PIN terdiri dari 4–6 angka. Kirim lagi PIN Anda, atau /batal.
buy-pin-wrong = PIN salah. Sisa percobaan: { $left }. Kirim lagi PIN Anda, atau /batal.
buy-pin-locked = 🔒 Terlalu banyak PIN salah, pembelian dikunci sampai { $until }. Tidak ada yang dibeli.
buy-pin-first = Kirim PIN Anda dulu.

buy-processing = ⏳ Mengirim pembelian ke provider…
buy-processing-again = ⏳ Pembelian ini sudah tercatat (bot memproses ulang tap Anda setelah gangguan). Saya cek ke provider dengan ref yang sama (tidak ada yang dibeli dua kali)…
buy-not-recorded = Pembelian tidak bisa dicatat, jadi tidak ada yang dikirim ke provider. Coba lagi sebentar lagi.
buy-wallet-short = Saldo dompet Anda { $balance }, kurang { $short } untuk pembelian ini. Tidak ada yang dibeli dan tidak ada saldo yang terpotong. Tambah saldo dengan ➕ Deposit, lalu pesan lagi.
buy-downline-suspended = Akun downline Anda sedang ditangguhkan oleh upline, jadi belum bisa membeli. Hubungi upline Anda.
buy-downline-unavailable = Layanan upline Anda sedang tidak tersedia. Coba lagi nanti atau hubungi upline Anda.
buy-downline-price-changed = Harga berubah tepat saat Anda konfirmasi, jadi tidak ada yang dibeli dan saldo tidak terpotong. Silakan pesan lagi untuk melihat harga terbaru.
buy-downline-product-unavailable = Produk ini sedang tidak tersedia. Saldo dompet Anda sudah dikembalikan; coba lagi nanti.

buy-result-success = ✅ <b>Sukses</b>
buy-result-failed = ❌ <b>Gagal</b> — provider melaporkan transaksi ini gagal.
buy-result-rejected = ⛔ <b>Ditolak provider</b> — tidak ada yang dibeli.
buy-result-pending = ⏳ <b>Sedang diproses</b> — saya kabari begitu transaksi ini selesai.
buy-result-unclear = ⏳ <b>Belum pasti</b> — provider tidak menjawab dengan jelas, jadi belum diketahui apakah transaksi ini sudah masuk. Saya cek ulang dengan ref yang sama (tidak akan terbeli dua kali) dan kabari hasilnya. Jangan beli ulang dulu.
buy-result-product = Produk: { $product } (<code>{ $code }</code>)
buy-result-target = Tujuan: <code>{ $target }</code>
buy-result-price = Harga: { $price }
buy-result-sn = SN: <code>{ $sn }</code>
buy-result-ref = Ref: <code>{ $ref }</code>
buy-result-bulk-title = 🧾 <b>Hasil { $count } transaksi</b>
buy-result-bulk-line = { $n }. { $icon } { $product } → <code>{ $target }</code>: { $status }
buy-result-bulk-unclear = Untuk yang belum dijawab jelas oleh provider, saya cek ulang dengan ref yang sama (tidak akan terbeli dua kali). Jangan beli ulang dulu.
buy-result-bulk-sn = { "   " }SN: <code>{ $sn }</code>
buy-result-bulk-reason = { "   " }{ $reason }
buy-result-bulk-pending = ⏳ Yang masih diproses akan saya kabari begitu selesai.
buy-status-success = Sukses
buy-status-failed = Gagal
buy-status-rejected = Ditolak
buy-status-pending = Diproses

## Buy by taps: /beli without arguments (category → brand → product → target)

buy-picker-categories = 🛒 <b>Beli</b> — pilih kategori.
    Atau ketik kode produk (misalnya <code>TSEL10</code>) atau KODE.TUJUAN. Daftar lengkap: /harga
buy-picker-brands = <b>{ $category }</b> — pilih brand.
buy-picker-products = <b>{ $category } › { $brand }</b> — pilih produk.
buy-picker-page = Halaman { $page }/{ $pages }
buy-picker-footer = ⛔ = sedang tidak bisa dibeli. Bisa juga ketik kodenya.
buy-picker-empty = Daftar harga dari provider masih kosong. Coba lagi nanti.
buy-picker-recent = Atau ketuk salah satu tujuan terakhir Anda di bawah.
buy-picker-hint = Ketuk salah satu tombol, atau ketik kode produk. Ketik /batal untuk berhenti.
buy-picker-outdated = Tombol ini sudah tidak berlaku. Pakai tombol di pesan terbaru.
buy-picker-unavailable = { $name } sedang tidak tersedia (status: { $status }). Pilih produk lain.

buy-category-pulsa = 📱 Pulsa
buy-category-data = 🌐 Paket Data
buy-category-pln = ⚡ PLN / Token Listrik
buy-category-emoney = 💳 E-Money
buy-category-game = 🎮 Game
buy-category-other = 📦 Lainnya

buy-picker-button-category = { $label } ({ $count })
buy-picker-button-product = { $name } · { $price }
buy-picker-button-unavailable = ⛔ { $name } · { $status }
buy-picker-button-back = ⬅️ Kembali
