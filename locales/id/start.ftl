## Start, help and commands

command-start = Mulai dan lihat cara memakai bot
command-help = Daftar perintah
command-connect = Hubungkan akun provider (API)
command-disconnect = Putuskan akun provider
command-balance = Cek saldo deposit
command-prices = Daftar harga (bisa dengan kata kunci)
command-buy = Beli produk: /beli KODE TUJUAN
command-status = Cek status transaksi
command-history = Riwayat transaksi
command-pin = Atur PIN transaksi
command-language = Ganti bahasa
command-cancel = Batalkan proses yang berjalan

start-welcome =
    Halo { $name }! 👋 Saya kiosbot, asisten jualan pulsa, paket data, token PLN dan voucher game Anda.

    Langkah pertama: hubungkan akun provider Anda dengan /connect (API ID dan API key dari halaman pengaturan API provider).
start-welcome-connected =
    Halo lagi, { $name }! 👋 Akun provider Anda sudah terhubung.

    Cek saldo dengan /saldo, cari produk dengan /harga, atau beli cepat: kirim KODE.TUJUAN, misalnya TSEL10.081234567890.
start-group =
    Halo semuanya! Saya kiosbot. Di grup ini saya bisa mengirim notifikasi transaksi pemilik toko. Ketik /help untuk daftar perintah.

help-text =
    <b>Perintah kiosbot</b>

    <b>Akun</b>
    /connect — hubungkan akun provider (top-up, marketplace, toko game)
    /disconnect — putuskan akun provider
    /saldo — cek saldo deposit
    /pin — atur, ganti atau hapus PIN transaksi
    /bahasa — ganti bahasa (Indonesia / English)

    <b>Jualan</b>
    /harga — daftar harga per brand; /harga telkomsel untuk mencari
    /beli — beli langkah demi langkah; /beli TSEL10 081234567890 untuk langsung
    <code>TSEL10.081234567890</code> — beli cepat; beberapa baris sekaligus (maks. 20)
    /cek — transaksi yang masih Pending; /cek REFID untuk satu transaksi
    /riwayat — riwayat transaksi dan struk

    /batal — batalkan proses yang sedang berjalan

## Language

language-choose = Pilih bahasa:
language-changed = Oke, saya akan berbahasa Indonesia. 🇮🇩
