## PIN: /pin, the purchase PIN

pin-menu =
    🔐 PIN transaksi sedang aktif: setiap pembelian meminta PIN.
    Mau apa?
pin-button-change = 🔁 Ganti PIN
pin-button-remove = 🗑 Hapus PIN
pin-button-cancel = ❌ Batal
pin-intro = 🔐 Anda belum punya PIN transaksi. Dengan PIN, setiap pembelian harus dikonfirmasi dengan PIN, jadi orang lain yang memegang HP Anda tidak bisa membeli.
pin-ask-new = Ketik PIN baru (4–6 angka). Pesannya langsung saya hapus. Ketik /batal untuk berhenti.
pin-ask-confirm = Ketik PIN baru sekali lagi untuk memastikan.
pin-ask-current = Ketik PIN Anda yang sekarang. Pesannya langsung saya hapus. Ketik /batal untuk berhenti.
pin-format = PIN harus 4–6 angka, tanpa huruf atau spasi. Coba lagi.
pin-weak = PIN itu terlalu mudah ditebak (angka sama semua atau berurutan). Pilih angka lain.
pin-mismatch = Kedua PIN tidak sama. Ulangi dari awal: ketik PIN baru.
pin-wrong = ❌ PIN salah. Sisa { $left } kali percobaan sebelum pembelian dikunci 15 menit. Coba lagi.
pin-locked = 🔒 Terlalu banyak PIN salah. Pembelian dan pengaturan PIN dikunci sampai { $until }.
pin-set = ✅ PIN disimpan. Mulai sekarang setiap pembelian meminta PIN ini.
pin-changed = ✅ PIN diganti. Pembelian berikutnya memakai PIN baru.
pin-removed = ✅ PIN dihapus. Pembelian tidak lagi meminta PIN.
pin-cancelled = Dibatalkan. PIN tidak berubah.
pin-delete-failed = ⚠️ Saya tidak bisa menghapus pesan berisi PIN Anda. Hapus pesan itu sendiri sekarang.
pin-text-only = Ketik PIN sebagai pesan teks biasa, atau ketik /batal untuk berhenti.
pin-failed = Maaf, PIN belum bisa disimpan karena ada kesalahan di sisi bot. PIN tidak berubah; coba lagi sebentar lagi.
