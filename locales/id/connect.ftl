## Connect: /connect and /disconnect, the provider credentials

connect-choose = 🔌 Pilih layanan yang mau dihubungkan:
connect-button-service = { $service }
connect-button-replace = 🔁 Ganti kredensial
connect-button-retry = 🔁 Coba lagi
connect-chosen = 🔌 { $service } dipilih.
connect-already =
    { $service } sudah terhubung ({ $label }, sejak { $since }).
    Mau menggantinya dengan kredensial baru? Yang lama tetap dipakai sampai yang baru berhasil diperiksa.
connect-cancelled = Dibatalkan. Tidak ada yang disimpan.

connect-ask-api-id =
    Langkah 1/2: kirim <b>API ID</b> akun { $service } Anda (ada di halaman pengaturan API provider). Pesan berisi kredensial langsung saya hapus dari chat.
    Ketik /batal untuk berhenti.
connect-ask-api-key =
    Langkah 2/2: kirim <b>API key</b> akun { $service } Anda.
    Pesan berisi key langsung saya hapus dari chat; key disimpan terenkripsi.
connect-ask-key-only =
    Kirim <b>API key</b> akun { $service } Anda (ada di halaman pengaturan API/akun).
    Pesan berisi key langsung saya hapus dari chat; key disimpan terenkripsi. Ketik /batal untuk berhenti.
connect-text-only = Kirim sebagai pesan teks biasa, atau ketik /batal untuk berhenti.
connect-delete-failed = ⚠️ Saya tidak bisa menghapus pesan berisi kredensial Anda. Hapus pesan itu sendiri sekarang supaya tidak terlihat orang lain.
connect-checking = ⏳ Memeriksa kredensial ke { $service }…

connect-done = ✅ { $service } terhubung: { $label }. Kredensial disimpan terenkripsi.
connect-next-reseller = Langkah berikutnya: cek saldo dengan /saldo, lihat daftar harga dengan /harga, lalu beli dengan /beli.
connect-next-marketplace = Langkah berikutnya: lihat akun dengan /akun, produk Anda dengan /produk, dan periksa kode pembelian pembeli dengan /validasi.
connect-next-gameshop = Langkah berikutnya: lihat daftar game dengan /game, buat pesanan dengan /pesan, dan pantau pesanan dengan /pesanan.
connect-rejected =
    ❌ { $service } menolak kredensial ini. Periksa lagi di halaman pengaturan API provider (salin tanpa spasi), lalu coba lagi.
    Tidak ada yang disimpan.
connect-failed =
    ❌ { $problem }
    Tidak ada yang disimpan.
connect-failed-generic = ❌ Kredensial belum bisa diperiksa karena ada kesalahan di sisi bot. Tidak ada yang disimpan; coba lagi sebentar lagi.

disconnect-none = Belum ada layanan yang terhubung. Ketik /connect untuk menghubungkan akun provider.
disconnect-choose = Pilih layanan yang mau diputuskan:
disconnect-button-service = { $service } ({ $label })
disconnect-confirm =
    Putuskan { $service } ({ $label })?
    Kredensialnya dihapus dari bot. Perintah yang memakai layanan ini tidak akan jalan sampai Anda menghubungkannya lagi.
disconnect-button-confirm = ✅ Ya, putuskan
disconnect-button-keep = ❌ Batal
disconnect-done = 🔌 { $service } diputuskan dan kredensialnya dihapus. Hubungkan lagi kapan saja dengan /connect.
disconnect-kept = Oke, { $service } tetap terhubung.
disconnect-not-connected = { $service } sudah tidak terhubung.
