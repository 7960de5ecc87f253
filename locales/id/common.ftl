## Common: shared words, errors and provider problems

service-reseller = Top-up reseller
service-marketplace = Marketplace
service-gameshop = Toko game

error-generic = Maaf, ada kesalahan di sisi bot. Coba lagi sebentar lagi; kalau terus terjadi, hubungi admin.
error-temporary = Maaf, ada gangguan sementara di server bot, jadi permintaan Anda belum bisa diproses. Tidak ada yang dibeli dua kali. Coba lagi beberapa menit lagi.
error-temporary-retrying = Maaf, ada gangguan sementara di server bot. Saya coba proses lagi otomatis sebentar lagi (tidak ada yang dibeli dua kali); kalau belum ada jawaban dalam beberapa menit, silakan ulangi.
error-cannot-save = Maaf, bot sedang tidak bisa menyimpan data, jadi permintaan Anda belum diproses dan tidak ada yang dibeli. Coba lagi beberapa menit lagi.
error-not-connected = Akun { $service } belum terhubung. Ketik /connect untuk menghubungkannya dulu.
error-private-only = Perintah ini hanya bisa dipakai di chat pribadi dengan bot, supaya data Anda aman. Buka chat pribadi dengan saya lalu coba lagi.
error-too-fast = Pelan-pelan 🙂 Terlalu banyak pesan dalam waktu singkat. Tunggu beberapa detik lalu coba lagi.

provider-error-credentials = { $service } menolak kredensial Anda (API ID/key salah atau sudah diganti). Hubungkan ulang dengan /connect.
provider-error-ip-blocked = { $service } memblokir IP server bot ini. Masukkan IP { $ip } ke whitelist di pengaturan API akun Anda, lalu coba lagi.
provider-error-ip-blocked-unknown = { $service } memblokir IP server bot ini. Minta admin bot menanyakan IP server, lalu masukkan ke whitelist di pengaturan API akun Anda.
provider-error-insufficient = Saldo deposit di { $service } tidak cukup. Isi deposit dulu, lalu coba lagi.
provider-error-not-found = { $service } menjawab: { $message }
provider-error-rejected = { $service } menolak permintaan: { $message }
provider-error-validation = { $service } menolak beberapa isian:
provider-error-unknown = { $service } tidak menjawab tepat waktu (gangguan jaringan atau server). Coba lagi sebentar lagi.
provider-said = Jawaban { $service }: "{ $message }"
provider-error-malformed = { $service } mengirim jawaban yang tidak bisa dibaca. Coba lagi nanti; kalau terus terjadi, beri tahu admin.

button-cancel = ❌ Batal
button-back = « Kembali
button-prev = ‹ Sebelumnya
button-next = Berikutnya ›
button-refresh = 🔄 Muat ulang

conversation-cancelled = Dibatalkan. Ketik /help untuk melihat apa yang bisa saya lakukan.
conversation-nothing-to-cancel = Tidak ada proses yang sedang berjalan.
# The command that starts conversation $id again.
conversation-restart = { $id ->
        [buy] /beli
        [order] /pesan
        [pin] /pin
        [sell] /jual
       *[connect] /connect
    }
conversation-expired = Langkah tadi sudah berakhir karena tidak ada balasan selama { $minutes } menit, jadi pesan ini tidak saya teruskan. Mulai lagi dengan { $command }.

time-wib = { $date } { $hour }.{ $minute } WIB
# The months of a date, January to December, separated by spaces
time-months = Jan Feb Mar Apr Mei Jun Jul Agu Sep Okt Nov Des
unhandled-text = Saya tidak mengerti pesan itu. Ketik /help untuk daftar perintah, atau kirim KODE.TUJUAN (misalnya TSEL10.081234567890) untuk beli cepat.
unhandled-phone = 📱 { $phone } adalah nomor { $operator }. Untuk membeli pulsa atau paket data untuknya, kirim <code>KODE.{ $phone }</code>; kode produknya ada di /harga { $search }.
unhandled-phone-unknown = 📱 { $phone } tampaknya nomor HP. Untuk membeli untuknya, kirim <code>KODE.{ $phone }</code>; cari kode produknya dengan /harga.
unhandled-bad-target = "{ $target }" bukan nomor tujuan yang benar untuk { $code }: tujuan ditulis dengan angka (nomor HP, nomor meter atau ID game), misalnya <code>{ $code }.081234567890</code>.
unhandled-search-target =
    Produk yang cocok dengan "{ $query }" untuk { $target }. Kirim salah satu baris ini untuk membeli:
    { $lines }
unhandled-search-target-none = Untuk membeli untuk { $target }, kirim <code>KODE.{ $target }</code>. Cari kode produknya dengan /harga { $query }.
unhandled-secret = Pesan Anda saya hapus karena tampak seperti API key atau PIN, dan tidak ada proses yang sedang menunggunya (mungkin waktunya sudah habis). Mulai lagi dengan /connect atau /pin.
unhandled-secret-expired = Pesan Anda saya hapus karena tampak seperti API key atau PIN. Langkah tadi sudah berakhir karena tidak ada balasan selama { $minutes } menit, jadi tidak ada yang disimpan. Mulai lagi dengan { $command }.
unhandled-callback = Tombol ini sudah tidak berlaku. Mulai lagi dari perintahnya.

## The periods of /ekspor and /laporan (days in WIB, weeks from Monday)
period-today = Hari ini
period-yesterday = Kemarin
period-week = Minggu ini
period-month = Bulan ini
period-lastmonth = Bulan lalu
