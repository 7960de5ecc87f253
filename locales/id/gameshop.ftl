## Game shop: /games, /pesan (order conversation), /pesanan, payment reminder

command-games = Daftar game di toko game (ketuk untuk memesan)
command-order = Pesan top up game
command-orders = Pesanan game saya

games-title = 🎮 <b>Game di toko</b>
games-popular = 🔥 <b>Populer</b>
games-category = 📂 <b>{ $category }</b>
games-category-count = 📂 { $category } — { $count } game
games-hint = Ketuk game untuk memesan, atau buka kategorinya. Bisa juga langsung /pesan.
games-category-hint = Ketuk game untuk memesan.
games-none = Toko game sedang tidak punya game aktif. Coba lagi nanti.
games-gone = Game itu sudah tidak ada di toko. Ketik /games untuk melihat daftar terbaru.
games-button-category = 📂 { $category } ({ $count })

order-no-games = Toko game sedang tidak punya game aktif, jadi belum bisa memesan. Coba lagi nanti.
order-ask-game = 🎮 Mau top up game apa? Pilih di bawah, atau ketik nama gamenya. Ketik /batal untuk berhenti.
order-game-unknown = Tidak ada game yang cocok dengan "{ $text }". Pilih dari tombol atau ketik nama lain.
order-game-several = Ada beberapa game yang cocok. Pilih salah satu:
order-game-not-listed = Game "{ $game }" tidak ada di daftar game aktif toko.
order-no-catalogue = ℹ️ Bot ini belum punya daftar produk dan metode pembayaran toko, jadi saya minta ID angkanya. Tidak ada yang rusak: pesanan tetap bisa dibuat seperti biasa. ID-nya bisa dilihat di situs toko.
order-game-not-in-catalogue = ℹ️ Daftar produk bot ini belum memuat { $game }, jadi saya minta ID angka produknya. Tidak ada yang rusak: pesanan tetap bisa dibuat. ID-nya bisa dilihat di situs toko.

order-ask-product = 🎮 <b>{ $game }</b>
    Pilih produk, atau ketik ID produknya:
order-ask-product-id = 🎮 <b>{ $game }</b>
    Kirim ID produk (angka), misalnya <code>104</code>.
order-product-invalid = Pilih produk dari tombol, atau kirim ID produknya (angka, misalnya <code>104</code>).
order-product-id-invalid = ID produk harus berupa angka, misalnya <code>104</code>. Kirim lagi.
order-ask-method = 💳 Pilih metode pembayaran, atau ketik ID-nya:
order-ask-method-id = 💳 Kirim ID metode pembayaran (angka), misalnya <code>1</code>.
order-method-invalid = Pilih metode pembayaran dari tombol, atau kirim ID-nya (angka, misalnya <code>1</code>).
order-method-id-invalid = ID metode pembayaran harus berupa angka, misalnya <code>1</code>. Kirim lagi.

order-ask-player = 👤 Kirim <b>{ $label }</b> akun { $game } tujuan top up.
order-server-next = ({ $server } saya tanyakan sesudahnya, kirim terpisah.)
order-player-invalid = Kirim { $label } dalam satu baris teks.
order-player-with-server = Kirim { $label } saja, tanpa { $server } di dalam kurung. { $server } saya tanyakan sesudah ini.
order-too-long = { $label } terlalu panjang (maksimal { $max } karakter). Kirim lagi.
order-use-last-hint = Ketuk tombol untuk memakai yang terakhir, atau kirim yang baru.
order-use-last = Pakai { $value }

order-ask-server = 🌐 Kirim <b>{ $label }</b> akun tersebut.
order-ask-server-choice = 🌐 Pilih <b>{ $label }</b> akun tersebut:
order-ask-server-optional = 🌐 Kalau game ini memakai Server / Zone ID, kirim sekarang. Kalau tidak, tekan Lewati.
order-server-invalid = { $label } harus satu baris, maksimal { $max } karakter. Kirim lagi.
order-server-not-listed = { $label } itu tidak ada di pilihan. Pilih dari tombol.

order-ask-whatsapp = 📱 Kirim nomor WhatsApp Anda (untuk bukti dan info pesanan dari toko), misalnya <code>081234567890</code>.
order-whatsapp-invalid = Itu bukan nomor HP Indonesia yang valid. Kirim nomor yang diawali 08, +62 atau 62, misalnya <code>081234567890</code>.
order-ask-nickname = 🏷️ Nickname di game (opsional). Kirim, atau tekan Lewati.
order-ask-email = 📧 Email untuk bukti pesanan (opsional). Kirim, atau tekan Lewati.
order-email-invalid = Itu bukan alamat email yang valid (contoh: <code>nama@contoh.com</code>). Kirim lagi, atau tekan Lewati.
order-ask-promo = 🎟️ Punya kode promo? Kirim kodenya, atau tekan Lewati.
order-promo-invalid-format = Kode promo ditulis tanpa spasi, maksimal { $max } karakter. Kirim lagi, atau tekan Lewati.
order-ask-quantity = 🔢 Berapa jumlahnya? Tekan angka di bawah (biasanya 1), atau ketik jumlahnya.
order-quantity-invalid = Jumlah harus angka bulat dari 1 sampai { $max }. Kirim lagi.

order-answer-hint = Kirim jawabannya sebagai teks atau tekan tombol di atas, atau ketik /batal untuk berhenti.
order-use-buttons = Tekan tombol di bawah pesan di atas, atau ketik /batal untuk berhenti.
order-button-old = Tombol itu untuk pertanyaan sebelumnya. Jawab pertanyaan terakhir.
order-question-expired = Pertanyaan ini sudah tidak berlaku. Ketik /pesan untuk memesan lagi.
order-skipped = Dilewati

order-field-game = Game
order-field-product-id = Produk
order-field-payment-method-id = Metode pembayaran
order-field-id = User ID / Player ID
order-field-server = Server / Zone ID
order-field-whatsapp = WhatsApp
order-field-nickname = Nickname
order-field-email = Email
order-field-promo-code = Kode promo
order-field-quantity = Jumlah

order-summary-title = 🧾 <b>Ringkasan pesanan</b>
order-summary-game = Game: { $game }
order-summary-product = Produk: { $product }
order-summary-quantity = Jumlah: { $quantity }
order-summary-method = Pembayaran: { $method }
order-summary-player = { $label }: <code>{ $value }</code>
order-summary-server = { $label }: <code>{ $value }</code>
order-summary-whatsapp = WhatsApp: <code>{ $value }</code>
order-summary-nickname = Nickname: { $value }
order-summary-email = Email: { $value }
order-summary-promo = Kode promo: { $value }
order-summary-none = -
order-summary-estimate = Perkiraan subtotal: { $amount } (sebelum promo, biaya dan kode unik; total pastinya dari toko)
order-summary-question = Pesan sekarang?
order-summary-confirmed = ✅ Dikonfirmasi.
order-summary-cancelled = ❌ Dibatalkan.
order-summary-expired = Ringkasan ini sudah tidak berlaku. Ketik /pesan untuk memesan lagi.
order-already-created = Pesanan ini sudah dibuat sekali ({ $orderId }) dan tidak dipesan lagi. Lihat /pesanan.
order-in-progress = Sedang memesan…
order-cancelled = Pesanan dibatalkan. Tidak ada yang dipesan.

order-button-skip = Lewati ➡️
order-button-confirm = ✅ Pesan sekarang
order-button-without-promo = ✅ Pesan tanpa promo
order-button-other-promo = 🎟️ Ganti kode promo
order-button-pay = 💳 Bayar
order-button-copy-code = 📋 Salin kode

order-created-title = ✅ <b>Pesanan dibuat</b>
order-created-already = ✅ <b>Pesanan ini sudah dibuat</b> (tidak dipesan lagi)
order-created-id = No. pesanan: <code>{ $orderId }</code>
order-created-item = { $game } — { $product } × { $quantity }
order-created-method = Pembayaran: { $method }
order-created-status = Status pembayaran: <b>{ $status }</b>
order-payment-status = { $status ->
    [UNPAID] Belum dibayar
    [PENDING] Menunggu pembayaran
    [PAID] Sudah dibayar
    [SUCCESS] Sudah dibayar
    [SETTLED] Sudah dibayar
    [EXPIRED] Kedaluwarsa
    [FAILED] Gagal
    [CANCELED] Dibatalkan
    [CANCELLED] Dibatalkan
    [REFUNDED] Dikembalikan
   *[other] { $word }
}
order-price-title = <b>Rincian harga</b>
order-price-unit = Harga satuan: { $unit } × { $quantity } = { $subtotal }
order-price-promo = Diskon promo (<code>{ $code }</code>): −{ $amount }
order-price-fee = Biaya pembayaran: { $amount }
order-price-unique = Kode unik: { $amount }
order-price-total = <b>Total bayar: { $amount }</b>
order-created-code = Kode bayar: <code>{ $code }</code>
order-created-qris = Bayar dengan QRIS: scan gambar QR di bawah pesan ini.
order-created-expires = ⏳ Bayar sebelum: <b>{ $at }</b>
order-created-reminder = Saya ingatkan 10 menit sebelum batas waktu.
order-created-no-reminder = Batas bayarnya kurang dari 10 menit lagi, jadi tidak ada pengingat: segera bayar.
order-created-not-saved = ⚠️ Pesanan ini sudah ada di toko, tapi gagal dicatat di bot: tidak muncul di /pesanan dan tidak ada pengingat. Simpan nomor pesanan di atas.
order-pay-link = Bayar lewat halaman ini: { $url }
order-qr-caption = QRIS untuk pesanan <code>{ $orderId }</code> — total { $total }. Scan dengan aplikasi bank atau e-wallet.
order-qr-merchant = Penerima: { $merchant }
order-qr-failed = Gambar QR tidak bisa ditampilkan di sini. Buka QR-nya lewat tautan ini: { $url }
    (atau tekan 💳 Bayar di atas).
order-qr-failed-no-link = Gambar QR tidak bisa ditampilkan di sini. Tekan 💳 Bayar di atas untuk membayar.

order-fields-refused = ⚠️ Toko game menolak beberapa isian:
order-fields-ask-again = Saya tanyakan lagi isian itu saja.
order-fields-cannot-fix = Isian itu tidak bisa diperbaiki di sini. Tidak ada yang dipesan; ketik /pesan untuk mencoba lagi.
order-product-mismatch = ⚠️ Produk { $product } bukan produk { $game } (toko: { $message }). Pilih produk lain untuk game ini.
order-promo-refused = ⚠️ Kode promo <code>{ $code }</code> tidak berlaku (toko: { $message }). Kode bisa salah ketik, sudah kedaluwarsa, atau tidak berlaku untuk produk ini.
    Lanjutkan tanpa promo, ganti kodenya, atau batalkan? Belum ada yang dipesan.
order-promo-dropped = ✅ Dipesan tanpa promo.
order-promo-retype = 🎟️ Ganti kode promo.
order-not-found-product = ⚠️ Toko tidak mengenal produk itu (toko: { $message }). Pilih atau kirim produk lain.
order-not-found-method = ⚠️ Toko tidak mengenal metode pembayaran itu (toko: { $message }). Pilih atau kirim metode lain.
order-not-found-game = ⚠️ Toko tidak mengenal game { $game } (toko: { $message }). Mungkin game itu baru dinonaktifkan. Tidak ada yang dipesan; lihat /games untuk daftar terbaru.
order-unknown-outcome = ⚠️ <b>Hasil pesanan tidak diketahui.</b> Toko game tidak menjawab dengan jelas (gangguan jaringan atau server), jadi pesanan <b>mungkin sudah dibuat, mungkin juga belum</b>.
    Jangan langsung memesan lagi: cek dulu WhatsApp/email Anda atau riwayat pesanan di situs toko. Kalau memang belum ada, pesan lagi dengan /pesan. Bot tidak mengulang pesanan ini sendiri.

order-reminder = ⏰ <b>Pengingat pembayaran</b>
    Pesanan <code>{ $orderId }</code> ({ $item }) harus dibayar sebelum <b>{ $at }</b> — 10 menit lagi.
    Total: { $total }
    Sudah dibayar? Abaikan pesan ini.

orders-empty = Belum ada pesanan game. Ketik /games atau /pesan untuk memesan.
orders-title = 🧾 <b>Pesanan game Anda</b> (halaman { $page })
orders-line = { $n }. <code>{ $orderId }</code>
    { $game } — { $product } × { $quantity }
    { $total } · { $method } · { $status } · dibuat { $created }
orders-pay-before = ⏳ Bayar sebelum { $at }
orders-expired = ⌛ Batas bayar sudah lewat ({ $at })
orders-footer = Status pembayaran dicatat saat pesanan dibuat; bot tidak memantaunya. Status terbaru ada di halaman pembayaran.
orders-button-pay = 💳 Bayar #{ $n }
