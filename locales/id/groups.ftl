## Groups: notifications in a group

groups-link-in-group = Jalankan perintah ini di grup yang ingin menerima notifikasi transaksi Anda (Anda harus admin di grup itu).
groups-link-not-connected = Hubungkan akun top-up atau marketplace Anda dulu lewat chat pribadi dengan saya (/connect), lalu jalankan /linkgroup lagi di sini.
groups-link-not-admin = Hanya admin grup yang bisa menautkan grup ini.
groups-linked = Grup ini sekarang tertaut ke { $name }: menerima notifikasi transaksinya (nomor tujuan disamarkan, saldo tidak ditampilkan) dan /validasi memakai akun marketplace-nya. /unlinkgroup untuk berhenti.
groups-not-linked = Grup ini tidak tertaut ke akun mana pun.
groups-unlink-not-allowed = Hanya pemilik tautan atau admin grup yang bisa melepasnya.
groups-unlinked = Oke, grup ini tidak lagi menerima notifikasi transaksi.
command-linkgroup = Kirim notifikasi transaksi saya ke grup ini
command-unlinkgroup = Hentikan notifikasi transaksi di grup ini
