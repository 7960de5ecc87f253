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
start-welcome-downline =
    Halo lagi, { $name }! 👋 Anda downline dari { $upline }: Anda membeli lewat akun { $upline }, dibayar dari saldo dompet Anda.

    Cek saldo dompet dengan /saldo, tambah dengan /deposit, cari produk dengan /harga, atau beli cepat: kirim KODE.TUJUAN, misalnya TSEL10.081234567890.
start-group =
    Halo semuanya! Saya kiosbot. Di grup ini saya bisa mengirim notifikasi transaksi pemilik toko. Ketik /help untuk daftar perintah.

help-title = Perintah kiosbot
help-section-reseller = Reseller (pulsa, data, PLN)
help-section-marketplace = Marketplace
help-section-gameshop = Toko game
help-section-groups = Grup
help-section-settings = Pengaturan
help-connect-first = (hubungkan dulu)
help-quick-buy = <code>TSEL10.081234567890</code> — beli cepat; beberapa baris sekaligus (maks. 20)
help-inline = <code>@{ $bot } tsel 10</code> di chat mana pun — kirim kartu harga dengan harga jual Anda (tanpa modal)

## Language

language-choose = Pilih bahasa:
language-changed = Oke, saya akan berbahasa Indonesia. 🇮🇩
