## Marketplace: /akun, /produk, /validasi (akun penjual, produk, validasi kode pembelian)

command-account = Akun marketplace: profil dan saldo
command-items = Produk Anda di marketplace
command-verify = Validasi kode pembelian: /validasi KODE

marketplace-account-title = 🏪 <b>Akun marketplace</b>
marketplace-account-name = Nama: <b>{ $name }</b>
marketplace-account-username = Username: { $username }
marketplace-account-heading = Profil: { $heading }
marketplace-account-balance = Saldo: <b>{ $balance }</b>
marketplace-account-registered = Terdaftar sejak: { $date }

marketplace-items-title = 🛍 <b>Produk Anda</b> ({ $count }) — halaman { $page }/{ $pages }
marketplace-items-line =
    { $n }. <b>{ $name }</b>
    { $category } · v{ $version }
    Harga: { $regular } (reguler) / { $extended } (extended)
marketplace-items-footer = Ketuk produk untuk melihat detailnya.
marketplace-items-empty = Toko Anda belum punya produk. Produk yang Anda terbitkan di marketplace akan muncul di sini.
marketplace-items-button = { $n }. { $name }

marketplace-item-title = <b>{ $name }</b>
marketplace-item-meta = { $category } · v{ $version }
marketplace-item-price = 💵 { $regular } (reguler) / { $extended } (extended)
marketplace-item-tags = 🏷 Tag: { $tags }
marketplace-item-demo = 🔗 Demo: { $url }
marketplace-item-video = 🎬 Pratinjau video: { $url }
marketplace-item-audio = 🎧 Pratinjau audio: { $url }
marketplace-item-image = 🖼 Gambar: { $url }
marketplace-item-button-demo = 🔗 Lihat demo
marketplace-item-button-video = 🎬 Tonton pratinjau
marketplace-item-button-audio = 🎧 Dengar pratinjau

marketplace-verify-usage =
    Kirim kode pembelian setelah perintahnya, misalnya:
    <code>/validasi 8f2c1a3e-5b7d-4e91-a6c0-2d4f8b9e1c37</code>
    Pembeli menemukan kode pembelian di halaman unduhan marketplace.
# Plain text (no HTML): a reply is recognised by this exact text.
marketplace-verify-prompt = 🔑 Kirim kode pembelian yang mau divalidasi sebagai balasan pesan ini.
marketplace-verify-placeholder = Kode pembelian
marketplace-verify-valid = ✅ <b>Kode pembelian valid</b>
marketplace-verify-item = 📦 Produk: { $item }
marketplace-verify-license = 📄 Lisensi: { $license }
marketplace-verify-price = 💵 Harga: { $price }
marketplace-verify-date = 🗓 Dibeli: { $date }
marketplace-verify-support-active = 🛟 Dukungan: aktif sampai { $until }
marketplace-verify-support-expired = 🛟 Dukungan: sudah berakhir sejak { $since }
marketplace-verify-support-none = 🛟 Dukungan: tidak termasuk dalam pembelian ini
marketplace-verify-downloaded-yes = ⬇️ Sudah diunduh: ya
marketplace-verify-downloaded-no = ⬇️ Sudah diunduh: belum
marketplace-verify-account = Dicek dengan akun marketplace: { $account }
marketplace-verify-cached = ⏱ Hasil pengecekan kurang dari semenit yang lalu.
marketplace-verify-invalid = ❌ Kode pembelian ini tidak valid. Marketplace menjawab: { $message }
marketplace-verify-too-many = ⏳ Terlalu banyak pengecekan kode di chat ini. Tunggu { $seconds } detik lalu coba lagi.
marketplace-verify-group-not-connected = Grup ini belum terhubung ke akun marketplace penjual. Penjual perlu menghubungkan marketplace dengan /connect di chat pribadi dengan bot, lalu mengirim /linkgroup di grup ini.
marketplace-verify-owner-not-connected = Pemilik tautan grup ini belum menghubungkan akun marketplace. Penjual perlu menghubungkannya dengan /connect di chat pribadi dengan bot.
marketplace-verify-owner-credentials = Marketplace menolak kredensial penjual yang menautkan grup ini (API key salah atau sudah diganti). Penjual perlu menghubungkan ulang dengan /connect di chat pribadi dengan bot.
