## Shop profile: /toko, the shop as printed on customer receipts

command-shop = Profil toko untuk struk pelanggan
shop-intro =
    🏪 <b>Profil toko</b>
    Profil toko dicetak di <b>struk pelanggan</b>: tombol 🧾 Struk pelanggan di bawah setiap transaksi sukses membuat struk untuk pembeli Anda (teks siap diteruskan dan gambar PNG) dengan nama toko, alamat dan catatan kaki Anda, serta harga jual Anda, tidak pernah harga modal.

    Ketik <b>nama toko</b> Anda (maks. { $max } karakter):
shop-ask-name = Ketik <b>nama toko</b> yang baru (maks. { $max } karakter):
shop-ask-address = Ketik <b>alamat</b> (satu baris, maks. { $max } karakter), misalnya <i>Jl. Melati 5, Bandung · 0812-3456-7890</i>:
shop-ask-footer = Ketik <b>catatan kaki</b> (maks. { $max } karakter), misalnya <i>Terima kasih, ditunggu order berikutnya!</i>:
shop-ask-target = Bagaimana <b>nomor tujuan</b> ditampilkan di struk?
shop-profile =
    🏪 <b>Profil toko</b>
    Nama toko: { $name }
    Alamat: { $address }
    Catatan kaki: { $footer }
    Nomor tujuan: { $target }

    Ubah bagian mana?
shop-none = (kosong)
shop-target-full = lengkap (081234567890)
shop-target-masked = disamarkan (0812****7890)
shop-button-name = ✏️ Nama
shop-button-address = 📍 Alamat
shop-button-footer = 📝 Catatan kaki
shop-button-target = 🔒 Nomor tujuan
shop-button-delete = 🗑 Hapus profil
shop-button-done = ✅ Selesai
shop-button-skip = ⏭ Lewati
shop-button-clear = 🧹 Kosongkan
shop-button-cancel = ❌ Batal
shop-button-full = Lengkap
shop-button-masked = Disamarkan
shop-too-long = Terlalu panjang: maks. { $max } karakter. Ketik lagi:
shop-too-many-lines = Catatan kaki paling banyak { $max } baris. Ketik lagi:
shop-one-line = Nama toko dan alamat hanya satu baris: ketik tanpa baris baru (Enter). Ketik lagi:
shop-invisible = Ada karakter tak terlihat atau karakter kontrol (misalnya pembalik arah teks atau spasi nol-lebar, biasanya ikut saat menempel teks) yang mengacaukan struk. Ketik lagi dengan huruf biasa:
shop-text-only = Ketik teks, atau pakai tombolnya.
shop-saved = ✅ Profil toko disimpan. Struk pelanggan berikutnya memakainya.
shop-deleted = 🗑 Profil toko dihapus. Struk pelanggan kembali tanpa nama toko.
shop-cancelled = Profil toko tidak diubah.
shop-done = ✅ Selesai. Struk pelanggan memakai profil ini.
shop-failed = ⚠️ Profil toko tidak bisa disimpan sekarang. Coba lagi sebentar lagi.

## Customer receipt: the 🧾 Struk pelanggan button under a Sukses receipt

customer-receipt-button = 🧾 Struk pelanggan
customer-receipt-title = STRUK PEMBELIAN
customer-receipt-status = SUKSES
customer-receipt-product = Produk
customer-receipt-target = Nomor tujuan
customer-receipt-sn = SN
customer-receipt-token = Token
customer-receipt-token-info = Keterangan
customer-receipt-price = Harga
customer-receipt-time = Waktu
customer-receipt-ref = No. Ref
customer-receipt-hint = 💡 Struk ini belum memakai nama toko Anda. Atur nama toko, alamat dan catatan kaki sekali dengan /toko.
customer-receipt-gone = Transaksi ini tidak ada di akun Anda (atau sudah terlalu lama). Struk pelanggan hanya untuk transaksi Anda sendiri.
customer-receipt-not-success = Struk pelanggan hanya untuk transaksi yang sukses.
customer-receipt-image-failed = ⚠️ Gambar struk tidak bisa dibuat sekarang; teks di atas bisa langsung diteruskan.
